import Benchmark
import Foundation
import MetaController
import OpenCombine

/// Scenario 3: Signals dispatch and Property set, against an array of closures,
/// OpenCombine and NotificationCenter.
enum EventBenchmarks {
    static let ping = Signal<Int>("ping")
    static let notificationName = Notification.Name("ping")

    /// A listener object; its handler does as little as the baseline's closures.
    final class Listener: Sendable {}

    static func register() {
        for count in [1, 10, 100] {
            let closures: [@Sendable (Int) -> Void] = (0..<count).map { _ in { blackHole($0) } }
            Benchmark("dispatch-closures-\(count)", configuration: Workload.micro()) { benchmark in
                for _ in benchmark.scaledIterations {
                    for closure in closures { closure(1) }
                }
            }

            let signals = Signals()
            let listeners = (0..<count).map { _ in Listener() }
            for listener in listeners {
                try! signals.add(listener, to: ping) { _, value in blackHole(value) }
            }
            Benchmark("dispatch-signals-\(count)", configuration: Workload.micro()) { benchmark in
                for _ in benchmark.scaledIterations { signals.dispatch(ping, 1) }
                blackHole(listeners)
            }

            let subject = PassthroughSubject<Int, Never>()
            let cancellables = (0..<count).map { _ in subject.sink { blackHole($0) } }
            Benchmark("dispatch-passthrough-\(count)", configuration: Workload.micro()) { benchmark in
                for _ in benchmark.scaledIterations { subject.send(1) }
                blackHole(cancellables)
            }

            // The value travels in userInfo, the way a notification carries a payload.
            let center = NotificationCenter()
            let observers = (0..<count).map { _ in
                center.addObserver(forName: notificationName, object: nil, queue: nil) { blackHole($0) }
            }
            Benchmark("dispatch-notificationcenter-\(count)", configuration: Workload.micro()) { benchmark in
                for _ in benchmark.scaledIterations {
                    center.post(name: notificationName, object: nil, userInfo: ["value": 1])
                }
                blackHole(observers)
            }
        }

        let closures: [@Sendable (Int) -> Void] = (0..<10).map { _ in { blackHole($0) } }
        var stored = 0
        Benchmark("property-closures-10", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                stored &+= 1
                for closure in closures { closure(stored) }
            }
        }

        let property = Property(0)
        let subscribers = (0..<10).map { _ in Listener() }
        for subscriber in subscribers {
            property.subscribe(subscriber) { _, value in blackHole(value) }
        }
        var next = 0
        Benchmark("property-set-10", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                next &+= 1
                property.value = next
            }
            blackHole(subscribers)
        }

        let current = CurrentValueSubject<Int, Never>(0)
        let currentCancellables = (0..<10).map { _ in current.sink { blackHole($0) } }
        var sent = 0
        Benchmark("property-currentvalue-10", configuration: Workload.micro()) { benchmark in
            for _ in benchmark.scaledIterations {
                sent &+= 1
                current.value = sent
            }
            blackHole(currentCancellables)
        }
    }
}
