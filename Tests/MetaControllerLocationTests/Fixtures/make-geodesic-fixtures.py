#!/usr/bin/env python3
"""Writes geodesic-fixtures.csv: distances on WGS-84 by GeographicLib, the
oracle for GeodesicTests.swift. Run once (pip install geographiclib); the
Swift tests read the committed CSV and need no Python.

    python3 make-geodesic-fixtures.py > geodesic-fixtures.csv

Seeded: the same GeographicLib version writes the same file.
"""
import math
import random
import sys

from geographiclib import __version__ as geographiclib_version
from geographiclib.geodesic import Geodesic

rng = random.Random(20130130)
rows = []


def add(kind, lat1, lon1, lat2, lon2):
    assert -90 <= lat1 <= 90 and -90 <= lat2 <= 90, (lat1, lat2)
    assert -180 <= lon1 <= 180 and -180 <= lon2 <= 180, (lon1, lon2)
    s12 = Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]
    rows.append((kind, lat1, lon1, lat2, lon2, s12))


def wrap(lon):
    """Into -180...180."""
    while lon > 180:
        lon -= 360
    while lon < -180:
        lon += 360
    return lon


def clamp(lat):
    return max(-90.0, min(90.0, lat))


def latitude():
    """Uniform on the sphere, rounded to 1e-9 degrees (0.1 mm)."""
    return round(math.degrees(math.asin(rng.uniform(-1, 1))), 9)


def longitude():
    return round(rng.uniform(-180, 180), 9)


def log_uniform(low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


# Named places, and the pairs the outside acceptance tests found wrong.
cities = {
    "tokyo": (35.6762, 139.6503), "san-francisco": (37.7749, -122.4194),
    "paris": (48.8566, 2.3522), "london": (51.5074, -0.1278),
    "new-york": (40.7128, -74.0060), "los-angeles": (34.0522, -118.2437),
    "sydney": (-33.8688, 151.2093), "quito": (-0.1807, -78.4678),
    "singapore": (1.3521, 103.8198), "auckland": (-36.8485, 174.7633),
    "honolulu": (21.3069, -157.8583), "anchorage": (61.2181, -149.9003),
    "suva": (-18.1248, 178.4501), "apia": (-13.8507, -171.7514),
}
for a, b in [("tokyo", "san-francisco"), ("paris", "london"), ("new-york", "los-angeles"),
             ("sydney", "tokyo"), ("quito", "singapore"), ("auckland", "honolulu"),
             ("tokyo", "anchorage"), ("suva", "apia"), ("auckland", "san-francisco"),
             ("sydney", "los-angeles")]:
    add("city:%s:%s" % (a, b), *cities[a], *cities[b])
add("city:berlin-100m", 52.52, 13.405, 52.5209, 13.405)
add("antimeridian:issue", -17, 179.9, -17, -179.9)
add("antimeridian:issue", 0, 179.5, 0, -179.5)

# Random pairs, the first point in each quadrant and the second in each quadrant.
for lat_sign1 in (-1, 1):
    for lon_sign1 in (-1, 1):
        for lat_sign2 in (-1, 1):
            for lon_sign2 in (-1, 1):
                for _ in range(20):
                    add("quadrants", lat_sign1 * abs(latitude()), lon_sign1 * abs(longitude()),
                        lat_sign2 * abs(latitude()), lon_sign2 * abs(longitude()))

# Across the antimeridian: longitudes that differ by more than 180 degrees.
for _ in range(150):
    lon1 = round(rng.uniform(0.001, 180), 9)
    lon2 = round(rng.uniform(-180, lon1 - 180.000000001), 9)   # lon1 - lon2 > 180
    assert lon1 - lon2 > 180
    if rng.random() < 0.5:
        lon1, lon2 = -lon1, -lon2
    add("antimeridian", latitude(), lon1, latitude(), lon2)
for _ in range(50):
    lat = latitude()
    d = log_uniform(1e-7, 5)
    add("antimeridian:close", lat, round(180 - d / 2, 12), clamp(round(lat + rng.uniform(-1, 1) * d, 12)),
        round(-180 + d / 2, 12))

# The poles: exactly, and within a hair.
for pole in (90.0, -90.0):
    for _ in range(25):
        add("pole", pole, longitude(), latitude(), longitude())
    for _ in range(15):
        add("pole:other", latitude(), longitude(), pole, longitude())
    for near in (89.9999999999, 89.999999999, 89.9999999, 89.99999, 89.999, 89.9):
        for _ in range(3):
            add("pole:near", math.copysign(near, pole), longitude(), latitude(), longitude())
        add("pole:near", math.copysign(near, pole), longitude(), math.copysign(near, pole), longitude())
        add("pole:near", math.copysign(near, pole), longitude(), -math.copysign(near, pole), longitude())
    add("pole:same", pole, longitude(), pole, longitude())
add("pole:to-pole", 90.0, 0.0, -90.0, 0.0)
add("pole:to-pole", 90.0, 45.0, -90.0, -135.0)
add("pole:to-pole", -90.0, 180.0, 90.0, -180.0)

# The equator, including spans near 180 degrees where the geodesic leaves it.
for _ in range(60):
    add("equator", 0.0, longitude(), 0.0, longitude())
for _ in range(40):
    lon1 = longitude()
    span = 180 - log_uniform(1e-6, 3)
    add("equator:wide", 0.0, lon1, 0.0, round(wrap(lon1 + rng.choice((-1, 1)) * span), 12))
for span in (179.0, 179.4, 179.41, 179.5, 179.9, 179.99, 179.999999, 180.0):
    add("equator:wide", 0.0, 0.0, 0.0, span)

# Nearly antipodal: the second point close to the first one's antipode.
for _ in range(250):
    lat1, lon1 = latitude(), longitude()
    d = log_uniform(1e-9, 2)
    lat2 = clamp(round(-lat1 + rng.uniform(-1, 1) * d, 12))
    lon2 = round(wrap(lon1 + 180 + rng.uniform(-1, 1) * d), 12)
    add("antipodal:near", lat1, lon1, lat2, lon2)
for _ in range(60):   # near the equator, where the astroid start matters most
    lat1 = round(rng.uniform(-1, 1) * log_uniform(1e-9, 1), 12)
    lon1 = longitude()
    lat2 = round(-lat1 + rng.uniform(-1, 1) * log_uniform(1e-9, 0.1), 12)
    lon2 = round(wrap(lon1 + 180 - log_uniform(1e-9, 1)), 12)
    add("antipodal:equator", lat1, lon1, lat2, lon2)

# Exactly antipodal.
for _ in range(40):
    lat1, lon1 = latitude(), longitude()
    add("antipodal:exact", lat1, lon1, -lat1, wrap(lon1 + 180))
for lon in (0.0, 30.0, 90.0, -45.0, 179.5, 180.0):
    add("antipodal:exact", 0.0, lon, 0.0, wrap(lon + 180))
for lat in (1e-9, 0.001, 0.5, 45.0, 89.0, 89.9999999):
    add("antipodal:exact", lat, 10.0, -lat, -170.0)

# Coincident points.
for _ in range(20):
    lat, lon = latitude(), longitude()
    add("coincident", lat, lon, lat, lon)
add("coincident", 0.0, 180.0, 0.0, -180.0)
add("coincident", 90.0, 10.0, 90.0, -100.0)

# Very short distances, from under a millimeter to some meters.
for _ in range(200):
    lat1, lon1 = latitude(), longitude()
    d = log_uniform(1e-9, 1e-4)
    angle = rng.uniform(0, 2 * math.pi)
    lat2 = clamp(round(lat1 + d * math.cos(angle), 13))
    lon2 = round(wrap(lon1 + d * math.sin(angle)), 13)
    add("short", lat1, lon1, lat2, lon2)

# Anything at all.
for _ in range(200):
    add("random", latitude(), longitude(), latitude(), longitude())

out = sys.stdout
out.write("# WGS-84 geodesic distances by GeographicLib %s (Geodesic.WGS84.Inverse), " % geographiclib_version)
out.write("written by make-geodesic-fixtures.py.\n")
out.write("kind,lat1,lon1,lat2,lon2,s12\n")
for kind, lat1, lon1, lat2, lon2, s12 in rows:
    out.write("%s,%r,%r,%r,%r,%r\n" % (kind, float(lat1), float(lon1), float(lat2), float(lon2), s12))
