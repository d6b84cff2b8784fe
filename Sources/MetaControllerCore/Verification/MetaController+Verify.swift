extension MetaController {
    /// Checks every factory registered here and in the parents, and the
    /// requirements of the consumers listed, and reports every problem at once.
    ///
    /// Call it in a test, on the MetaController the app builds at launch, to
    /// find a broken graph before a user opens the screen that needs it:
    ///
    /// ```swift
    /// @Test @MainActor func theGraphIsComplete() {
    ///     let metaController = AppGraph.make()
    ///     let report = metaController.verify(consumers: [FeedScreen.self, CheckoutScreen.self])
    ///     #expect(report.isSatisfied, "\(report)")
    /// }
    /// ```
    ///
    /// Each registration that a request here would find (the nearest of each
    /// type, name and argument type) is made once, with a child of this
    /// MetaController as the requester, and the product is dropped. A shared
    /// factory's product is made for the verification alone, and only when
    /// none is made yet: no factory's product is kept, and a shared product
    /// made before stays as it is (its factory is not run again). A factory
    /// that takes an argument is made with the sample of its argument type in
    /// `samples`, or else the one it was registered with
    /// (`register(_:name:argument:sample:factory:)`), and reported as
    /// ``MetaControllerVerification/Problem/Kind/missingSample`` when there is none.
    ///
    /// Each factory runs once per verification, however many factories
    /// request its product: a request made again within one verification
    /// (the same registration, asked of the same MetaController, with an equal
    /// argument when it takes a `Hashable` one) gets the product made the
    /// first time, or fails as it did, and its factory does not run again. So
    /// the time a verification takes grows with the registrations and the
    /// requests between them, as making every product once does. A request
    /// with an argument that is not `Hashable` runs its factory each time.
    ///
    /// It reports, with the chain of factories that led there, as
    /// `circularFactories` names them (`Checkout -> Payment -> TokenStore`),
    /// each cause once, with the longest chain that led to it:
    /// - a request for a product no factory makes (one per missing type, name and argument type);
    /// - factories that request each other in a circle, once per circle;
    /// - a factory that throws (one per registration, however many factories needed it);
    /// - a main-actor factory requested by a factory that does not run on the
    ///   main actor (one per pair);
    /// - each consumer type in `consumers`, and each product that is a
    ///   consumer, whose ``MetaControllerConsumer/requiredControllers`` this
    ///   MetaController does not all fill;
    /// - a product that reads an empty slot through its accessors while it is
    ///   made (one per product and slot);
    /// - a factory, or a product one made, that calls `verify` while the graph
    ///   is verified: that call starts no verification of its own (it would run
    ///   the same factory again, without end) and returns a report holding this
    ///   one ``MetaControllerVerification/Problem/Kind/verifyCalledWhileVerifying`` problem.
    ///
    /// A factory that catches a failed request and makes its product anyway
    /// (an optional dependency, `(try? metaController.make(Analytics.self)) ?? NoAnalytics()`)
    /// is not reported.
    ///
    /// Factories run as they do in the app, side effects included, and on the
    /// main actor, so that main-actor factories can be made; a request a
    /// factory makes on another thread is not verified, and makes its product
    /// for real. On a strict MetaController (MetaControllerTesting's
    /// `MetaController.strict(reporting:)`), each problem is also handed to
    /// its reporter, so the test fails without an assertion of its own.
    ///
    /// A verification takes no more of the thread's stack per factory on a
    /// chain than making the same chain does: a graph the app can make, a test
    /// can verify on the same thread (Docs/Performance.md, "Deep chains of factories").
    ///
    /// - Parameters:
    ///   - consumers: The consumer types the app shows, such as its screens.
    ///   - samples: Arguments for the factories that take one, one per argument type.
    /// - Returns: The problems found, none for a complete graph, and how many
    ///   registrations were checked and made.
    @MainActor @discardableResult
    public func verify(
        consumers: [any MetaControllerConsumer.Type] = [],
        samples: [FactorySample] = []
    ) -> MetaControllerVerification {
        verificationRecord(consumers: consumers, samples: samples, recordingRequests: false).report
    }

    /// What one verification found and, for a graph, what it saw: each
    /// registration checked, each consumer type checked, and, when
    /// `recordingRequests`, the requests the factories made.
    struct VerificationRecord {
        struct Registration {
            let key: FactoryKey
            /// The key's description, as problems name it.
            let name: String
            let owner: MetaController
            let shared: Bool
            /// Whether its factory is async.
            let isAsync: Bool
        }

        struct Consumer {
            let type: any MetaControllerConsumer.Type
            /// The registration whose product it is; `nil` for a type listed in `consumers`.
            let madeBy: FactoryKey?
            let required: [MetaControllerSlot]
            let missing: [MetaControllerSlot]
        }

        let report: MetaControllerVerification
        /// Where each of the report's problems arose, in the order of its problems.
        var places: [PlacedProblem] = []
        var registrations: [Registration] = []
        var consumers: [Consumer] = []
        var requests: [FactoryVerification.RequestEdge] = []
    }

    /// A problem, and the registrations and the consumer type it is about, by
    /// their identities rather than by the names its chain gives them (two
    /// types can share a name): where a graph puts it.
    package struct PlacedProblem {
        package let problem: MetaControllerVerification.Problem
        /// The keys of the registrations its chain names, in the chain's
        /// order; empty for a consumer type listed.
        package var keys: [FactoryKey] = []
        /// For a consumer's unfilled requirements, the consumer type.
        package var consumer: ObjectIdentifier?
    }

    /// ``verify(consumers:samples:)``, keeping what a graph needs besides the report.
    @MainActor
    func verificationRecord(
        consumers: [any MetaControllerConsumer.Type], samples: [FactorySample], recordingRequests: Bool
    ) -> VerificationRecord {
        if let within = Self.verifyWithin() { return within }
        let run = VerificationRun(recordsRequests: recordingRequests)
        let verification = run.recorder
        let requester = verification.standIn(for: self)
        var sampleValues: [ObjectIdentifier: Any] = [:]
        for sample in samples { sampleValues[sample.type] = sample.value }
        var tally = Tally(recordingRequests: recordingRequests)

        FactoryConstruction.verifying(run) {
            for registration in registrations() {
                let findingMark = verification.findingMark
                defer {
                    verification.attributeFindings(since: findingMark, to: registration.key)
                    if recordingRequests { verification.attributeRequests(to: registration.key) }
                }
                let (problem, product) = check(registration, requester: requester, samples: sampleValues, in: run)
                tally.add(registration, problem: problem, product: product, requester: requester)
            }
        }
        for consumerType in consumers {
            tally.requirements(of: consumerType, holder: self, name: String(describing: consumerType), madeBy: nil)
        }
        tally.found += verification.findings.map(Self.placed)
        let requests = verification.requests
        let released = run.finish()
        withExtendedLifetime(released) {}
        return report(tally, requests: requests, canonicalCircles: false)
    }

    /// Verifies the graph as ``verify(consumers:samples:)`` does, async
    /// factories included: each registration visible made once, every
    /// problem reported where it arose, all at once.
    ///
    /// ```swift
    /// @Test @MainActor func theGraphIsComplete() async {
    ///     let metaController = AppGraph.make()
    ///     let report = await metaController.verification(consumers: [FeedScreen.self, CheckoutScreen.self])
    ///     #expect(report.isSatisfied, "\(report)")
    /// }
    /// ```
    ///
    /// It makes the promises ``verify(consumers:samples:)`` makes, for async
    /// registrations (`register` and `registerShared` with an `async`
    /// factory) as for the others: each registration a request here would
    /// find is made once, with a child of this MetaController as the
    /// requester, and the product dropped; a shared product, async or not, is
    /// made for the verification alone, and one made before stays and is not
    /// made again; a factory that takes an argument is made with its sample.
    /// The requests an async factory makes (``product(_:name:isolation:)``,
    /// and `make` of a synchronous factory) are verified as a synchronous
    /// factory's are, and it reports the same problems, each cause once, with
    /// the longest chain that led to it: a product no factory makes, a circle
    /// (async factories that request each other, in one task or several, are
    /// reported as `circularFactories`, never waited for), a factory that
    /// throws, a missing sample, a main-actor factory requested off the main
    /// actor, a consumer's unfilled requirements and reads of empty slots, and
    /// a synchronous `make` of an async registration
    /// (``MetaControllerVerification/Problem/Kind/asyncFactory``: the app's
    /// `make` would throw ``MetaControllerError/Code/asyncFactory``, unless
    /// the shared product was made before). A circle is named from its
    /// factory whose name sorts first, whichever task found it.
    ///
    /// Each factory runs once per verification, however many factories
    /// request its product, and from however many tasks: the first request
    /// runs it, and the same request again (the same registration, asked of
    /// the same MetaController, with an equal argument when it takes a
    /// `Hashable` one) gets its product or fails as it did, waiting for it
    /// while it is made. One exception: a synchronous factory that is not
    /// shared runs again for each request an async factory makes of it,
    /// since its product need not be `Sendable` and no two tasks are given
    /// one instance (its problems are reported once all the same).
    ///
    /// How it runs: every async registration is verified in a child task of
    /// its own, all of them at once (a task group), while the synchronous
    /// registrations are made one after the other on the main actor, as
    /// `verify` makes them. An async factory runs in the task that first
    /// requests it, off the main actor, as in the app; a main-actor factory
    /// it requests is made on the main actor. So async factories that do not
    /// depend on each other are made at the same time: a graph whose async
    /// factories each wait a second takes about as long as its longest chain
    /// of async factories that request each other, not the sum of their waits.
    /// Synchronous factories run one at a time, never two at once (they
    /// cannot wait, and a test's graph should not race itself).
    ///
    /// On a strict MetaController (MetaControllerTesting's
    /// `MetaController.strict(reporting:)`), each problem is also handed to
    /// its reporter. A factory, or a product one made, that calls `verify` or
    /// `verification` while the graph is verified gets a report holding one
    /// ``MetaControllerVerification/Problem/Kind/verifyCalledWhileVerifying``
    /// problem, and this report has it too. A request made from a task that
    /// is not a child of the verification's (a `Task.detached`) is not
    /// verified, and makes its product for real.
    ///
    /// Named apart from `verify`: an async overload of `verify` would be the
    /// one every `verify()` already written in async code calls.
    ///
    /// - Parameters:
    ///   - consumers: The consumer types the app shows, such as its screens.
    ///   - samples: Arguments for the factories that take one, one per argument type.
    /// - Returns: The problems found, none for a complete graph, and how many
    ///   registrations were checked and made.
    @MainActor
    public func verification(
        consumers: [any MetaControllerConsumer.Type] = [],
        samples: [FactorySample] = []
    ) async -> MetaControllerVerification {
        await asyncVerificationRecord(consumers: consumers, samples: samples, recordingRequests: false).report
    }

    /// ``verification(consumers:samples:)``, keeping what a graph needs besides the report.
    @MainActor
    func asyncVerificationRecord(
        consumers: [any MetaControllerConsumer.Type], samples: [FactorySample], recordingRequests: Bool
    ) async -> VerificationRecord {
        if let within = Self.verifyWithin() { return within }
        let run = AsyncVerificationRun(recordsRequests: recordingRequests)
        let verification = run.recorder
        let requester = verification.standIn(for: self)
        var sampleValues: [ObjectIdentifier: Any] = [:]
        for sample in samples { sampleValues[sample.type] = sample.value }
        let visible = registrations()

        struct Result {
            var problem: PlacedProblem?
            var product: Any?
            var findings: [FactoryVerification.Failure] = []
        }
        var results = [Result?](repeating: nil, count: visible.count)
        await withTaskGroup(of: (Int, AsyncVerificationFrame.Checked).self) { group in
            // The async registrations, each in a task of its own, all at once.
            for (index, registration) in visible.enumerated() {
                let key = registration.key
                switch registration.factory {
                case .asyncPerRequest(let factory):
                    guard let request = factory.verificationRequest(key: key, requester: requester, samples: sampleValues)
                    else {
                        results[index] = Result(problem: Self.missingSample(key))
                        continue
                    }
                    group.addTask { (index, await run.verify(key) { frame in try await request(frame) }) }
                case .asyncShared(let factory):
                    let owner = registration.owner
                    group.addTask {
                        let checked = await run.verify(key) { frame in
                            try await run.sharedAsyncProduct(of: factory, key: key, owner: owner, from: frame)
                        }
                        return (index, checked)
                    }
                case .perRequest, .shared:
                    continue
                }
            }
            // Meanwhile the synchronous ones, here, one after the other, as `verify` makes them.
            run.mainSection { syncRun in
                for (index, registration) in visible.enumerated() where !registration.isAsync {
                    syncRun.requesterKey = registration.key
                    let findingMark = verification.findingMark
                    let (problem, product) = check(registration, requester: requester, samples: sampleValues, in: syncRun)
                    verification.attributeFindings(since: findingMark, to: registration.key)
                    results[index] = Result(
                        problem: problem, product: product, findings: verification.takeFindings(since: findingMark))
                }
            }
            // `next()`, not `for await`: in an isolated function the loop resolves to
            // `Iterator.next(isolation:)`, which needs iOS 18 and macOS 15.
            while let (index, checked) = await group.next() {
                let slot = checked.product as? FactorySlot
                results[index] = Result(
                    problem: checked.failure.map(Self.placed), product: slot?.anyProduct ?? checked.product,
                    findings: checked.findings)
            }
        }

        var tally = Tally(recordingRequests: recordingRequests)
        var findings: [FactoryVerification.Failure] = []
        for (registration, result) in zip(visible, results) {
            guard let result else { continue }
            findings += result.findings
            tally.add(registration, problem: result.problem, product: result.product, requester: requester)
        }
        for consumerType in consumers {
            tally.requirements(of: consumerType, holder: self, name: String(describing: consumerType), madeBy: nil)
        }
        tally.found += findings.map(Self.placed)
        let requests = verification.requests
        let released = run.finish()
        withExtendedLifetime(released) {}
        return report(tally, requests: requests, canonicalCircles: true)
    }

    /// What a verification counts and finds, registration by registration.
    private struct Tally {
        let recordingRequests: Bool
        var found: [PlacedProblem] = []
        var made = 0
        var checked = 0
        var consumerTypes: Set<ObjectIdentifier> = []
        var registrations: [VerificationRecord.Registration] = []
        var consumers: [VerificationRecord.Consumer] = []

        init(recordingRequests: Bool) {
            self.recordingRequests = recordingRequests
        }

        /// Counts `registration`, checked: the problem it ended with, or its product's requirements.
        @MainActor
        mutating func add(_ registration: VisibleRegistration, problem: PlacedProblem?, product: Any?, requester: MetaController) {
            checked += 1
            if recordingRequests {
                registrations.append(
                    VerificationRecord.Registration(
                        key: registration.key, name: registration.name, owner: registration.owner,
                        shared: registration.isShared, isAsync: registration.isAsync))
            }
            if let problem {
                found.append(problem)
                return
            }
            guard let product else { return }
            made += 1
            if let consumer = ConsumerTypes.consumer(product) {
                requirements(
                    of: type(of: consumer), holder: consumer.metaController ?? requester,
                    name: registration.name, madeBy: registration.key)
            }
        }

        /// Checks that `holder` fills what `consumerType` requires.
        mutating func requirements(
            of consumerType: any MetaControllerConsumer.Type, holder: MetaController, name: String, madeBy: FactoryKey?
        ) {
            consumerTypes.insert(ObjectIdentifier(consumerType))
            let required = consumerType.requiredControllers
            let missing = required.filter { !holder.contains($0) }
            if recordingRequests {
                consumers.append(
                    VerificationRecord.Consumer(type: consumerType, madeBy: madeBy, required: required, missing: missing))
            }
            guard !missing.isEmpty else { return }
            let problem = MetaControllerVerification.Problem(
                kind: .unfilledRequirement, chain: [name],
                message: "\(name) requires \(missing.map(\.name).joined(separator: ", ")), "
                    + "which this MetaController lacks")
            found.append(PlacedProblem(problem: problem, keys: madeBy.map { [$0] } ?? [], consumer: ObjectIdentifier(consumerType)))
        }
    }

    /// The report of `tally`, each cause once, handed to a strict MetaController's reporter.
    private func report(
        _ tally: Tally, requests: [FactoryVerification.RequestEdge], canonicalCircles: Bool
    ) -> VerificationRecord {
        var places = Self.distinct(tally.found)
        if canonicalCircles { places = places.map(Self.canonicalCircle) }
        let report = MetaControllerVerification(
            problems: places.map(\.problem), factoriesMade: tally.made, factoriesChecked: tally.checked,
            consumerTypesChecked: tally.consumerTypes.count)
        if let handler = verificationProblemHandler {
            for problem in report.problems { handler(problem) }
        }
        return VerificationRecord(
            report: report, places: places, registrations: tally.registrations, consumers: tally.consumers,
            requests: requests)
    }

    /// Makes the synchronous `registration` in `run`, on this thread, with
    /// `requester`: the problem it ended with, or its product.
    @MainActor
    private func check(
        _ registration: VisibleRegistration, requester: MetaController, samples: [ObjectIdentifier: Any],
        in run: VerificationRun
    ) -> (problem: PlacedProblem?, product: Any?) {
        let verification = run.recorder
        let mark = verification.mark
        let product: Any?
        do {
            switch registration.factory {
            case .perRequest(let factory):
                product = try factory.verificationProduct(
                    key: registration.key, requester: requester, samples: samples, isolation: MainActor.shared)
            case .shared(let factory):
                product = try run.sharedProduct(of: factory, key: registration.key, owner: registration.owner).anyProduct
            case .asyncPerRequest, .asyncShared:
                // Only ``verification(consumers:samples:)`` can make it.
                return (Self.notVerified(registration.key), nil)
            }
        } catch {
            let failure = verification.failures(since: mark).last
            return (failure.map(Self.placed) ?? Self.placed(threw: error, key: registration.key), nil)
        }
        _ = verification.failures(since: mark)
        guard let product else { return (Self.missingSample(registration.key), nil) }
        return (nil, product)
    }

    /// The record of a verification asked for while one runs on this thread
    /// or in this task, by a factory it runs or a product one made: it
    /// verifies nothing (it would run the same factory again, and that one
    /// would ask again), and the outer one reports the call; `nil` when none runs.
    private static func verifyWithin() -> VerificationRecord? {
        let record: (FactoryVerification.Failure) -> Void
        let chain: [FactoryKey]
        if let outer = FactoryConstruction.verification {
            record = outer.recorder.find
            chain = FactoryConstruction.chain
        } else if let frame = AsyncVerificationFrame.active {
            record = frame.find
            chain = frame.path
        } else {
            return nil
        }
        let call = FactoryVerification.Failure(
            kind: .verifyCalledWhileVerifying, chain: chain,
            message: "verify(consumers:samples:) was called while the graph was verified, by a factory "
                + "or a product it made; call verify from a test or at launch, not from a factory")
        record(call)
        let place = placed(call)
        let report = MetaControllerVerification(
            problems: [place.problem], factoriesMade: 0, factoriesChecked: 0, consumerTypesChecked: 0)
        return VerificationRecord(report: report, places: [place])
    }

    /// A registration a request to this MetaController would find.
    private struct VisibleRegistration {
        enum Factory {
            case perRequest(any VerifiableRegistration)
            case shared(FactorySlot.SharedFactory)
            case asyncPerRequest(any AsyncVerifiableRegistration)
            case asyncShared(FactorySlot.AsyncSharedFactory)
        }

        let key: FactoryKey
        /// The key's description (describing a type takes about a microsecond: made once).
        var name = ""
        let owner: MetaController
        let factory: Factory

        var isShared: Bool {
            switch factory {
            case .shared, .asyncShared: true
            case .perRequest, .asyncPerRequest: false
            }
        }

        var isAsync: Bool {
            switch factory {
            case .asyncPerRequest, .asyncShared: true
            case .perRequest, .shared: false
            }
        }
    }

    /// The registrations a request here finds: the nearest of each key, here
    /// or in a parent, less the shared ones whose product is made or being
    /// made, in the order of their keys' descriptions.
    private func registrations() -> [VisibleRegistration] {
        var seen: Set<FactoryKey> = []
        var found: [VisibleRegistration] = []
        var scope: MetaController? = self
        while let owner = scope {
            let (typeFactories, factories) = owner.state.withLock { ($0.typeFactories, $0.factories) }
            let slots =
                typeFactories.map { (FactoryKey(Self.productType(of: $0.key)), $0.value) }
                + factories.map { ($0.key, $0.value) }
            for (key, slot) in slots {
                // A product made (or being made) hides its factory from every request too, and is not made again.
                guard seen.insert(key).inserted else { continue }
                switch slot {
                case .registration(let object):
                    guard let registration = object as? any VerifiableRegistration else { continue }
                    found.append(VisibleRegistration(key: key, owner: owner, factory: .perRequest(registration)))
                case .shared(let factory):
                    found.append(VisibleRegistration(key: key, owner: owner, factory: .shared(factory)))
                case .asyncRegistration(let object):
                    guard let registration = object as? any AsyncVerifiableRegistration else { continue }
                    found.append(VisibleRegistration(key: key, owner: owner, factory: .asyncPerRequest(registration)))
                case .asyncShared(let factory):
                    found.append(VisibleRegistration(key: key, owner: owner, factory: .asyncShared(factory)))
                case .building, .awaited, .made, .madeObject, .asyncBuilding:
                    continue
                }
            }
            scope = owner.parent
        }
        for index in found.indices { found[index].name = found[index].key.description }
        return found.sorted { $0.name < $1.name }
    }

    /// The type whose identifier `key` holds.
    ///
    /// The tables of factories of a type alone keep the type's `ObjectIdentifier`
    /// only, which is the address of its metadata: `ObjectIdentifier.init(_: Any.Type)`
    /// is that bit cast (a public, inlinable part of the standard library's
    /// ABI), and a metatype of `Any.Type` is the same one word, so the cast back
    /// gives the type. Only a verification asks, to name the type.
    static func productType(of key: TypeKey) -> any Any.Type {
        unsafeBitCast(key.id, to: Any.Type.self)
    }

    /// The problem `failure` reports, with the keys of its chain.
    private static func placed(_ failure: FactoryVerification.Failure) -> PlacedProblem {
        var keys = failure.chain
        var message = failure.message
        if failure.kind == .circularFactories, let closing = keys.last, let start = keys.firstIndex(of: closing) {
            // The circle alone, not the registration that led to it (found by
            // key: two types of one name are not one factory).
            keys = Array(keys[start...])
            message = "circular factories: " + keys.map(\.description).joined(separator: " -> ")
        }
        let problem = MetaControllerVerification.Problem(kind: failure.kind, chain: keys.map(\.description), message: message)
        return PlacedProblem(problem: problem, keys: keys)
    }

    private static func placed(threw error: any Error, key: FactoryKey) -> PlacedProblem {
        let problem = MetaControllerVerification.Problem(
            kind: .factoryThrew, chain: [key.description], message: "the factory of \(key) threw: \(error)")
        return PlacedProblem(problem: problem, keys: [key])
    }

    /// An async registration, which ``verify(consumers:samples:)`` cannot make.
    private static func notVerified(_ key: FactoryKey) -> PlacedProblem {
        let problem = MetaControllerVerification.Problem(
            kind: .asyncFactory, chain: [key.description],
            message: "the factory of \(key) is async and verify(consumers:samples:) cannot make it; "
                + "call await verification(consumers:samples:) to verify it")
        return PlacedProblem(problem: problem, keys: [key])
    }

    /// `placed` with its circle named from its factory whose name sorts first
    /// (an async verification's tasks may meet a circle from any of its factories).
    private static func canonicalCircle(_ placed: PlacedProblem) -> PlacedProblem {
        guard placed.problem.kind == .circularFactories, placed.keys.count > 2 else { return placed }
        let members = Array(placed.keys.dropLast())
        guard let first = members.indices.min(by: { members[$0].description < members[$1].description }), first > 0
        else { return placed }
        let keys = Array(members[first...] + members[..<first]) + [members[first]]
        let problem = MetaControllerVerification.Problem(
            kind: .circularFactories, chain: keys.map(\.description),
            message: "circular factories: " + keys.map(\.description).joined(separator: " -> "))
        return PlacedProblem(problem: problem, keys: keys)
    }

    private static func missingSample(_ key: FactoryKey) -> PlacedProblem {
        let problem = MetaControllerVerification.Problem(
            kind: .missingSample, chain: [key.description],
            message: "\(key) was not made: no sample argument; pass one to verify(consumers:samples:) "
                + "or register the factory with register(_:name:argument:sample:factory:)")
        return PlacedProblem(problem: problem, keys: [key])
    }

    /// The problems, each cause once, with the longest chain that led to it:
    /// a circle met from each of its factories is one, as is a missing
    /// registration (its key), a throwing factory (its registration), a
    /// main-actor factory requested off the main actor or an async one requested
    /// with `make` (the pair), a read of
    /// an empty slot (the product and the slot) and a consumer type's
    /// requirements, whatever the chains that reached them. Causes are told
    /// apart by the registrations' keys and the consumer types, not by their
    /// names: two types of one name are two causes.
    private static func distinct(_ problems: [PlacedProblem]) -> [PlacedProblem] {
        struct Cause: Hashable {
            let kind: MetaControllerVerification.Problem.Kind
            var parts: [String] = []
            var keys: [FactoryKey] = []
            var circle: Set<FactoryKey> = []
            var consumer: ObjectIdentifier?
        }
        var kept: [PlacedProblem] = []
        var indices: [Cause: Int] = [:]
        for placed in problems {
            let problem = placed.problem
            var cause = Cause(kind: problem.kind)
            switch problem.kind {
            case .circularFactories:
                if placed.keys.isEmpty {
                    cause.parts = problem.chain.dropLast().sorted()
                } else {
                    cause.circle = Set(placed.keys.dropLast())
                }
            case .missingFactory, .factoryThrew, .missingSample, .verifyCalledWhileVerifying:
                if let last = placed.keys.last {
                    cause.keys = [last]
                } else {
                    cause.parts = [problem.chain.last ?? problem.message]
                }
            case .notOnMainActor, .asyncFactory:
                if placed.keys.isEmpty {
                    cause.parts = problem.chain.suffix(2)
                } else {
                    cause.keys = placed.keys.suffix(2)
                }
            default:
                cause.parts = [problem.message]
                cause.consumer = placed.consumer
                if placed.consumer == nil { cause.keys = placed.keys.suffix(1) }
            }
            if let index = indices[cause] {
                if problem.chain.count > kept[index].problem.chain.count { kept[index] = placed }
                continue
            }
            indices[cause] = kept.count
            kept.append(placed)
        }
        return kept
    }
}
