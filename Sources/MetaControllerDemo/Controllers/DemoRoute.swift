import Foundation
import MetaController

/// A short walk through Paris, shipped with the demo as GPX 1.1.
enum DemoRoute {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="metacontroller-demo" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Louvre to Notre-Dame</name><trkseg>
            <trkpt lat="48.8606" lon="2.3376"><time>2026-05-01T09:00:00Z</time></trkpt>
            <trkpt lat="48.8589" lon="2.3418"><time>2026-05-01T09:05:00Z</time></trkpt>
            <trkpt lat="48.8566" lon="2.3469"><time>2026-05-01T09:10:00Z</time></trkpt>
            <trkpt lat="48.8530" lon="2.3499"><time>2026-05-01T09:15:00Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """

    /// The walk, played 3,000 times faster than real time: 15 minutes in 0.3 seconds.
    static func makeController() throws -> SimulatedLocationController {
        SimulatedLocationController(route: try GPXRoute(data: Data(gpx.utf8)), speed: 3000)
    }
}
