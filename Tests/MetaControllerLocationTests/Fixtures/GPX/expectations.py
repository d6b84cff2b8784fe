#!/usr/bin/env python3
"""Writes expectations.json: what gpxpy (https://pypi.org/project/gpxpy/) reads
from each fixture here, for GPXRouteTests to compare GPXRoute's reading with.

Run by hand after changing a fixture (`pip install gpxpy`, then
`python3 expectations.py`); the tests need only the JSON it writes.

Rules where gpxpy differs from GPXRoute on purpose:
- A time without a zone offset is naive in gpxpy; GPXRoute reads it as UTC,
  and so does this script.
- gpxpy does not resolve a prefix on the GPX namespace (<g:gpx xmlns:g=...>),
  so for such a file the script gives gpxpy the same document rewritten with
  GPX as the default namespace.
"""
import datetime
import json
import pathlib
import re

import gpxpy

def text_for_gpxpy(path):
    text = path.read_text(encoding="utf-8")
    root = re.search(r"<(?:([A-Za-z_][\w.-]*):)?gpx[\s>]", text)
    prefix = root.group(1) if root else None
    if prefix is None:
        return text
    # The fixtures use the prefix only for GPX and never declare a default namespace.
    assert re.search(r"\sxmlns=", text) is None
    return text.replace(f"<{prefix}:", "<").replace(f"</{prefix}:", "</").replace(f"xmlns:{prefix}=", "xmlns=")


def seconds(time):
    if time.tzinfo is None:
        time = time.replace(tzinfo=datetime.timezone.utc)
    return round(time.timestamp(), 6)


def expectation(path):
    gpx = gpxpy.parse(text_for_gpxpy(path))
    kinds = {
        "waypoints": list(gpx.waypoints),
        "routePoints": [point for route in gpx.routes for point in route.points],
        "trackPoints": [point for track in gpx.tracks for segment in track.segments for point in segment.points],
    }
    points = [point for kind in kinds.values() for point in kind]
    times = [seconds(point.time) for point in points if point.time is not None]
    return {
        **{kind: len(values) for kind, values in kinds.items()},
        "timed": len(times),
        "withElevation": sum(1 for point in points if point.elevation is not None),
        "earliestTime": min(times) if times else None,
        "latestTime": max(times) if times else None,
        "latitudeSum": round(sum(point.latitude for point in points), 7),
        "longitudeSum": round(sum(point.longitude for point in points), 7),
        "names": sorted(point.name for point in points if point.name),
    }


here = pathlib.Path(__file__).parent
result = {path.name: expectation(path) for path in sorted(here.glob("*.gpx"))}
(here / "expectations.json").write_text(json.dumps(result, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
