import Foundation

/// The inverse geodesic problem on the WGS-84 ellipsoid: the length of the
/// shortest path between two points, by C. F. F. Karney's method ("Algorithms
/// for geodesics", J. Geodesy 87, 2013).
///
/// The path is found on the auxiliary sphere: the azimuth at the first point
/// is solved for by Newton's method (with bisection as a safeguard) so that
/// the geodesic reaches the second point's longitude, starting from a
/// spherical estimate, or, for nearly antipodal points, from the solution of
/// the astroid equation. Distances and longitudes along the geodesic come
/// from Fourier series in the small parameter ε, to sixth order, which for
/// the Earth's flattening are exact to about 15 nanometers. Every input has
/// a solution: there is no fallback, no recursion and no allocation, and the
/// iteration count is bounded.
enum Geodesic {
    static let equatorialRadius = 6_378_137.0
    static let flattening = 1 / 298.257223563
    static let polarRadius = equatorialRadius * (1 - flattening)

    /// The length of the shortest path from one point to another, in meters.
    /// Latitudes in -90...90 and longitudes in degrees; the longitudes may
    /// differ by any amount.
    static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        // Put the points in a canonical position, which leaves the distance
        // unchanged: 0 <= λ12 <= 180, the first point the farther from the
        // equator and in the southern hemisphere.
        let lon12 = roundedTiny(abs(remainder(longitude2 - longitude1, 360)))
        var lat1 = roundedTiny(latitude1), lat2 = roundedTiny(latitude2)
        if abs(lat1) < abs(lat2) { swap(&lat1, &lat2) }
        if lat1.sign == .plus { lat1.negate(); lat2.negate() }

        // β, the reduced latitudes; equal magnitudes of latitude give equal magnitudes here.
        let (sbet1, cbet1) = reducedLatitude(lat1), (sbet2, cbet2) = reducedLatitude(lat2)
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot(), dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()
        let lam12 = lon12 * .pi / 180
        let (slam12, clam12) = sinCos(degrees: lon12)
        let ends = Ends(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2)

        // Along a meridian (or from a pole) σ follows from the latitudes, but
        // past a conjugate point (m12 < 0) the meridian is not the shortest path.
        if lat1 == -90 || slam12 == 0 {
            let ssig1 = sbet1, csig1 = clam12 * cbet1, ssig2 = sbet2, csig2 = cbet2
            let sig12 = atan2(nonNegative(csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            let (s12b, m12b) = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, ends)
            if sig12 < 1 || m12b >= 0 {
                return sig12 < 3 * tiny || (sig12 < tol0 && (s12b < 0 || m12b < 0)) ? 0 : polarRadius * s12b
            }
        }

        // Along the equator, which is the shortest path up to λ12 = (1 - f) 180°.
        if sbet1 == 0 && 180 - lon12 >= flattening * 180 {
            return equatorialRadius * lam12
        }

        var start = initialAzimuth(ends, lam12: lam12, slam12: slam12, clam12: clam12)
        if let shortDistance = start.shortDistance { return shortDistance }

        // Newton's method on α1 for λ12(α1) = λ12, keeping a bracket [α1a, α1b]
        // (ordered by cot α1, which decreases with α1) and bisecting when a step leaves it.
        var lowSin = tiny, lowCos = 1.0, highSin = tiny, highCos = -1.0
        var nearlyConverged = false, bisectionDone = false
        var path = Trial()
        for iteration in 0...maxIterations {
            path = trial(ends, salp1: start.salp1, calp1: start.calp1, slam12: slam12, clam12: clam12)
            let miss = path.lambdaMiss
            if bisectionDone || !(abs(miss) >= (nearlyConverged ? 8 : 1) * tol0) || iteration == maxIterations { break }
            let salp1 = start.salp1, calp1 = start.calp1
            if miss > 0 && (iteration > newtonIterations || calp1 / salp1 > highCos / highSin) {
                highSin = salp1
                highCos = calp1
            } else if miss < 0 && (iteration > newtonIterations || calp1 / salp1 < lowCos / lowSin) {
                lowSin = salp1
                lowCos = calp1
            }
            if iteration < newtonIterations && path.derivative > 0 {
                let step = -miss / path.derivative
                if abs(step) < .pi {
                    let sstep = sin(step), cstep = cos(step)
                    let newSin = salp1 * cstep + calp1 * sstep
                    if newSin > 0 {
                        start.calp1 = calp1 * cstep - salp1 * sstep
                        start.salp1 = newSin
                        normalize(&start.salp1, &start.calp1)
                        nearlyConverged = abs(miss) <= 16 * tol0
                        continue
                    }
                }
            }
            start.salp1 = (lowSin + highSin) / 2
            start.calp1 = (lowCos + highCos) / 2
            normalize(&start.salp1, &start.calp1)
            nearlyConverged = false
            bisectionDone =
                abs(lowSin - start.salp1) + (lowCos - start.calp1) < tolb
                || abs(start.salp1 - highSin) + (start.calp1 - highCos) < tolb
        }
        let s12b = lengths(
            eps: path.eps, sig12: path.sig12, ssig1: path.ssig1, csig1: path.csig1,
            ssig2: path.ssig2, csig2: path.csig2, ends
        ).s12b
        return polarRadius * s12b
    }

    // MARK: - The ellipsoid and tolerances

    private static let f1 = 1 - flattening
    /// The second eccentricity squared, e'².
    private static let ep2 = flattening * (2 - flattening) / (f1 * f1)
    /// The third flattening, n = f / (2 - f).
    private static let n = flattening / (2 - flattening)

    private static let tol0 = Double.ulpOfOne
    private static let tol1 = 200 * tol0
    private static let tol2 = tol0.squareRoot()
    private static let tolb = tol0 * tol2
    private static let xthresh = 1000 * tol2
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Below this σ12 the short-line estimate is already exact to round-off.
    private static let etol2 = 0.1 * tol2 / (max(0.001, flattening) * min(1, 1 - flattening / 2) / 2).squareRoot()
    private static let newtonIterations = 20
    private static let maxIterations = newtonIterations + Double.significandBitCount + 1 + 10

    // MARK: - Pieces

    /// Sines and cosines of the reduced latitudes of the two points, and dn = √(1 + e'² sin²β).
    private struct Ends {
        var sbet1, cbet1, dn1, sbet2, cbet2, dn2: Double
    }

    /// The starting azimuth α1, or the distance itself when the points are
    /// so close that the first estimate is already exact.
    private struct Start {
        var salp1, calp1: Double
        var shortDistance: Double?
    }

    /// A geodesic leaving the first point at a trial azimuth.
    private struct Trial {
        /// λ12(α1) minus the wanted λ12, in radians, and its derivative by α1.
        var lambdaMiss = 0.0, derivative = 0.0
        var sig12 = 0.0, ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0
    }

    /// sin and cos of an angle in degrees, exact at multiples of 90° (so the poles have cos = 0).
    private static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        var reduced = remainder(degrees, 360)   // exact, in -180...180
        let quarter = (reduced / 90).rounded()
        reduced -= 90 * quarter   // exact, in -45...45
        let radians = reduced * .pi / 180
        let s = sin(radians), c = cos(radians)
        switch Int(quarter) {
        case 1: return (c, 0 - s)
        case -1: return (0 - c, s)
        case 2, -2: return (0 - s, 0 - c)
        default: return (s, c)
        }
    }

    /// sin β and cos β of the reduced latitude, tan β = (1 - f) tan φ; cos β
    /// stays positive at the poles. Computed from |φ| so that ±φ are exact mirrors.
    private static func reducedLatitude(_ latitude: Double) -> (sin: Double, cos: Double) {
        let (s, c) = sinCos(degrees: abs(latitude))
        var sbet = f1 * s, cbet = c
        normalize(&sbet, &cbet)
        return (latitude < 0 ? -sbet : sbet, max(tiny, cbet))
    }

    /// Rounds angles below 1/16° to a multiple of 2⁻⁵⁷ degrees (about a
    /// picometer), so that tiny values cannot underflow the tests for 0 above.
    private static func roundedTiny(_ x: Double) -> Double {
        let limit = 1.0 / 16
        let magnitude = abs(x)
        let rounded = magnitude < limit ? limit - (limit - magnitude) : magnitude
        return x < 0 ? -rounded : rounded
    }

    /// x, or +0 when x is negative or -0 (a sine of σ12 or ω12, which lie in 0...π).
    private static func nonNegative(_ x: Double) -> Double {
        x > 0 ? x : 0
    }

    private static func normalize(_ sine: inout Double, _ cosine: inout Double) {
        let length = hypot(sine, cosine)
        sine /= length
        cosine /= length
    }

    /// The reduced distance s12 / b and reduced length m12 / b for the arc
    /// σ1...σ2 of a geodesic with parameter ε.
    private static func lengths(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double, _ ends: Ends
    ) -> (s12b: Double, m12b: Double) {
        let a1m1 = a1MinusOne(eps), a2m1 = a2MinusOne(eps)
        let c1 = c1Series(eps), c2 = c2Series(eps)
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let b1 = c1.sum(sin: ssig2, cos: csig2) - c1.sum(sin: ssig1, cos: csig1)
        let b2 = c2.sum(sin: ssig2, cos: csig2) - c2.sum(sin: ssig1, cos: csig1)
        let s12b = a1 * (sig12 + b1)
        // J12 = I1(σ12) - I2(σ12), the difference of the distance and the second integral.
        let j12 = (a1m1 - a2m1) * sig12 + (a1 * b1 - a2 * b2)
        let m12b = ends.dn2 * (csig1 * ssig2) - ends.dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// The first estimate of α1: the great circle on a sphere (for short
    /// lines, at the mean latitude's scale), and near the antipode the
    /// solution of the astroid equation (Karney, section 5).
    private static func initialAzimuth(_ ends: Ends, lam12: Double, slam12: Double, clam12: Double) -> Start {
        let sbet1 = ends.sbet1, cbet1 = ends.cbet1, sbet2 = ends.sbet2, cbet2 = ends.cbet2
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1   // sin(β2 - β1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1   // cos(β2 - β1)
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1   // sin(β2 + β1)
        let short = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12, dnm = 1.0
        if short {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }
        var salp1 = cbet2 * somg12
        var calp1 =
            comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if short && ssig12 < etol2 {
            return Start(salp1: salp1, calp1: calp1, shortDistance: atan2(ssig12, csig12) * polarRadius * dnm)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // Not nearly antipodal: the spherical estimate will do.
        } else {
            // Scale λ12 - π and β1 + β2 to the astroid's coordinates x and y.
            let lam12x = atan2(-slam12, -clam12)
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = flattening * cbet1 * a3(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale, y = sbet12a / betscale
            if y > -tol1 && x > -1 - xthresh {
                // Near the equator the astroid degenerates; α1 follows from x directly.
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = astroid(x: x, y: y)
                let omg12a = lamscale * (-x * k / (1 + k))
                let s = sin(omg12a), c = -cos(omg12a)
                salp1 = cbet2 * s
                calp1 = sbet12a - cbet2 * sbet1 * s * s / (1 - c)
            }
        }
        if salp1 > 0 {
            normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return Start(salp1: salp1, calp1: calp1, shortDistance: nil)
    }

    /// The positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0
    /// (Karney, equation 55), in closed form.
    private static func astroid(x: Double, y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4, r2 = r * r, r3 = r * r2
        // The discriminant of the cubic, whose root u gives k.
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()   // no cancellation
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v   // u + v without cancellation
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    /// Follows the geodesic leaving the first point at α1 to the second
    /// point's latitude and measures how far its longitude misses.
    private static func trial(_ ends: Ends, salp1: Double, calp1 startCos: Double, slam12: Double, clam12: Double) -> Trial {
        let sbet1 = ends.sbet1, cbet1 = ends.cbet1, sbet2 = ends.sbet2, cbet2 = ends.cbet2
        // Due north or south from the equator is the meridian, handled before; nudge off it.
        let calp1 = sbet1 == 0 && startCos == 0 ? -tiny : startCos
        // α0, the azimuth at the equator crossing (Clairaut: sin α0 = sin α1 cos β1).
        let salp0 = salp1 * cbet1, calp0 = hypot(calp1, salp1 * sbet1)
        var path = Trial()
        path.ssig1 = sbet1
        path.csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        normalize(&path.ssig1, &path.csig1)
        // cos α2 cos β2 = √(cos²α1 cos²β1 + cos²β2 - cos²β1), in whichever form is accurate.
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let change = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + change).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        path.ssig2 = sbet2
        path.csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        normalize(&path.ssig2, &path.csig2)
        path.sig12 = atan2(
            nonNegative(path.csig1 * path.ssig2 - path.ssig1 * path.csig2),
            path.csig1 * path.csig2 + path.ssig1 * path.ssig2)
        // ω12 on the auxiliary sphere, and η = ω12 - λ12 (the wanted one).
        let somg12 = nonNegative(comg1 * somg2 - somg1 * comg2), comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)
        let k2 = calp0 * calp0 * ep2
        path.eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = c3Series(path.eps)
        let b312 = c3.sum(sin: path.ssig2, cos: path.csig2) - c3.sum(sin: path.ssig1, cos: path.csig1)
        // λ12 = ω12 - f sin α0 I3(σ12).
        path.lambdaMiss = eta - flattening * a3(path.eps) * salp0 * (path.sig12 + b312)
        if calp2 == 0 {
            path.derivative = -2 * f1 * ends.dn1 / sbet1
        } else {
            let m12b = lengths(
                eps: path.eps, sig12: path.sig12, ssig1: path.ssig1, csig1: path.csig1,
                ssig2: path.ssig2, csig2: path.csig2, ends
            ).m12b
            path.derivative = m12b * f1 / (calp2 * cbet2)
        }
        return path
    }

    // MARK: - Series in ε (Karney, equations 17, 18, 24, 25, 42, 43), to ε⁶

    /// A sum Σ c_l sin 2lσ, l = 1...6, evaluated by Clenshaw's recurrence from sin σ and cos σ.
    private struct SineSeries {
        var c1, c2, c3, c4, c5, c6: Double

        func sum(sin s: Double, cos c: Double) -> Double {
            let x = 2 * (c - s) * (c + s)   // 2 cos 2σ
            var next = 0.0, current = c6
            (current, next) = (c5 + x * current - next, current)
            (current, next) = (c4 + x * current - next, current)
            (current, next) = (c3 + x * current - next, current)
            (current, next) = (c2 + x * current - next, current)
            (current, next) = (c1 + x * current - next, current)
            return current * 2 * s * c   // times sin 2σ
        }
    }

    /// A1 - 1, the factor of σ in the distance integral I1.
    private static func a1MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 / 256))
        return (t + eps) / (1 - eps)
    }

    /// C1l, the Fourier coefficients of the distance integral I1.
    private static func c1Series(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e4 * e2
        return SineSeries(
            c1: eps * (-1.0 / 2 + e2 * (3.0 / 16 - e2 / 32)),
            c2: e2 * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * 9 / 2048)),
            c3: e3 * (-1.0 / 48 + e2 * 3 / 256),
            c4: e4 * (-5.0 / 512 + e2 * 3 / 512),
            c5: e5 * (-7.0 / 1280),
            c6: e6 * (-7.0 / 2048))
    }

    /// A2 - 1, the factor of σ in the integral I2 of the reduced length.
    private static func a2MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (-3.0 / 4 + e2 * (-7.0 / 64 + e2 * -11 / 256))
        return (t - eps) / (1 + eps)
    }

    /// C2l, the Fourier coefficients of I2.
    private static func c2Series(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps, e6 = e4 * e2
        return SineSeries(
            c1: eps * (1.0 / 2 + e2 * (1.0 / 16 + e2 / 32)),
            c2: e2 * (3.0 / 16 + e2 * (1.0 / 32 + e2 * 35 / 2048)),
            c3: e3 * (5.0 / 48 + e2 * 5 / 256),
            c4: e4 * (35.0 / 512 + e2 * 7 / 512),
            c5: e5 * (63.0 / 1280),
            c6: e6 * (77.0 / 2048))
    }

    /// A3, the factor of σ in the longitude integral I3 (its coefficients depend on n).
    private static func a3(_ eps: Double) -> Double {
        1 + eps * (a3x1 + eps * (a3x2 + eps * (a3x3 + eps * (a3x4 + eps * a3x5))))
    }

    private static let a3x1 = (n - 1) / 2
    private static let a3x2 = (3 * n * n - n - 2) / 8
    private static let a3x3 = (-n * n - 3 * n - 1) / 16
    private static let a3x4 = (-2 * n - 3) / 64
    private static let a3x5 = -3.0 / 128

    /// C3l, the Fourier coefficients of I3, l = 1...5.
    private static func c3Series(_ eps: Double) -> SineSeries {
        let e2 = eps * eps, e3 = e2 * eps, e4 = e2 * e2, e5 = e4 * eps
        return SineSeries(
            c1: eps * (c3x11 + eps * (c3x12 + eps * (c3x13 + eps * (c3x14 + eps * c3x15)))),
            c2: e2 * (c3x22 + eps * (c3x23 + eps * (c3x24 + eps * c3x25))),
            c3: e3 * (c3x33 + eps * (c3x34 + eps * c3x35)),
            c4: e4 * (c3x44 + eps * c3x45),
            c5: e5 * c3x55,
            c6: 0)
    }

    // The coefficient of ε^j in C3l is c3x<l><j>.
    private static let c3x11 = (1 - n) / 4
    private static let c3x12 = (1 - n * n) / 8
    private static let c3x13 = (3 + 3 * n - n * n) / 64
    private static let c3x14 = (5 + 2 * n) / 128
    private static let c3x15 = 3.0 / 128
    private static let c3x22 = (2 - 3 * n + n * n) / 32
    private static let c3x23 = (3 - 2 * n - 3 * n * n) / 64
    private static let c3x24 = (3 + n) / 128
    private static let c3x25 = 5.0 / 256
    private static let c3x33 = (5 - 9 * n + 5 * n * n) / 192
    private static let c3x34 = (9 - 10 * n) / 384
    private static let c3x35 = 7.0 / 512
    private static let c3x44 = (7 - 14 * n) / 512
    private static let c3x45 = 7.0 / 512
    private static let c3x55 = 21.0 / 2560
}
