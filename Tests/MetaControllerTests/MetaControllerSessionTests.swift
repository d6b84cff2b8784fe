import Dispatch
import Testing

import MetaController
@testable import MetaControllerCore
import MetaControllerTestSupport
import MetaControllerTesting

// A signed-in user's state, as Docs/ComingFromSwinject.md ("Sessions") and
// MetaController.reset() describe it: controllers in a slot of a child scope,
// products of shared factories registered there.

private protocol Account: AnyObject, Sendable {
    var user: String { get }
}

private enum AccountKey: MetaControllerKey {
    typealias Value = any Account
}

extension MetaControllerConsumer {
    fileprivate var account: (any Account)? { self[AccountKey.self] }
}

/// The signed-in user's controller. It holds its MetaController weakly, as the
/// docs tell controllers to.
private final class SignedInAccount: Account, MetaControllerConsumer {
    let user: String
    private let reference = WeakMetaControllerReference()
    var metaController: MetaController? {
        get { reference.metaController }
        set { reference.metaController = newValue }
    }
    init(user: String) { self.user = user }
}

/// A per-user cache: a shared product, and a consumer that holds its
/// MetaController strongly, so it and its scope hold each other until the reset.
private final class AvatarCache: MetaControllerConsumer, @unchecked Sendable {
    // Set once, by the factory's hand-over, before the cache is shared.
    var metaController: MetaController?
    let user: String?
    init(user: String?) { self.user = user }
}

/// A screen that stays across sessions.
private final class AccountScreen: MetaControllerConsumer {
    static let requiredControllers: [MetaControllerSlot] = [.custom(AccountKey.self), .log]
    var metaController: MetaController?
    var title: String { account?.user ?? "signed out" }
}

/// A weak reference, to show what a reset releases.
private struct Weak<Object: AnyObject> {
    weak var object: Object?
}

@Suite("MetaController: sessions with reset()")
struct MetaControllerSessionTests {
    /// The app scope, the session scope under it, and two screens that stay.
    private func signedIn(as user: String) -> (app: MetaController, session: MetaController, screens: [AccountScreen]) {
        let app = MetaController()
        app.logController = FakeLogController()
        let session = MetaController(parent: app)
        session.registerShared(AvatarCache.self) { metaController in AvatarCache(user: metaController[AccountKey.self]?.user) }
        session[AccountKey.self] = SignedInAccount(user: user)
        let screens = [AccountScreen(), AccountScreen()]
        for screen in screens { session.passMetaController(to: screen) }
        return (app, session, screens)
    }

    @Test("log in, make per-user products, log out: they are released, the app's controllers stay, and the screens read the next session")
    func logInLogOutLogIn() throws {
        let (app, session, screens) = signedIn(as: "ada")
        let appLog = try #require(app.logController)
        var account = Weak<AnyObject>(object: session[AccountKey.self])
        var cache = Weak(object: try session.make(AvatarCache.self) as AvatarCache)
        #expect(cache.object?.user == "ada")
        #expect(screens.map(\.title) == ["ada", "ada"])
        #expect(account.object != nil && cache.object != nil)

        session.reset()   // log out

        #expect(account.object == nil)
        #expect(cache.object == nil)
        #expect(screens.map(\.title) == ["signed out", "signed out"])
        #expect(screens.allSatisfy { $0.metaController === session })
        #expect(app.logController === appLog)
        #expect(session.logController === appLog)

        session[AccountKey.self] = SignedInAccount(user: "grace")   // log in again
        account = Weak<AnyObject>(object: session[AccountKey.self])
        let next = try session.make(AvatarCache.self) as AvatarCache
        cache = Weak(object: next)
        #expect(next.user == "grace")
        #expect(next.metaController === session)
        #expect(try session.make(AvatarCache.self) === next)
        #expect(screens.map(\.title) == ["grace", "grace"])
        #expect((account.object as? SignedInAccount)?.metaController === session)
    }

    @Test("an audit of the screens after logout shows what is missing until the next login")
    func auditAfterLogout() {
        let (_, session, screens) = signedIn(as: "ada")
        session.reset()
        let audit = session.audit(screens[0])
        #expect(audit.unsatisfied.map(\.missingControllers) == [[.custom(AccountKey.self)]])
    }

    @Test("a reset leaves the parent and children alone, and keeps the registrations")
    func resetIsLocal() throws {
        let (app, session, _) = signedIn(as: "ada")
        app[AccountKey.self] = SignedInAccount(user: "app-wide")
        app.registerShared(ImageCache.self) { _ in ImageCache() }
        let appCache = try app.make(ImageCache.self) as ImageCache
        let flow = MetaController(parent: session)
        flow[AccountKey.self] = SignedInAccount(user: "flow")
        session.reset()
        #expect(session[AccountKey.self]?.user == "app-wide")   // the parent's shows through
        #expect(flow[AccountKey.self]?.user == "flow")
        #expect(try app.make(ImageCache.self) === appCache)
        #expect(try session.make(AvatarCache.self).user == "app-wide")   // registered still
    }

    @Test("a reset of an empty MetaController, or twice in a row, changes nothing")
    func resetTwice() throws {
        let empty = MetaController()
        empty.reset()
        #expect(!empty.contains(.log))
        let (_, session, _) = signedIn(as: "ada")
        session.reset()
        session.reset()
        #expect(session[AccountKey.self] == nil)
        #expect(try session.make(AvatarCache.self).user == nil)
    }

    @Test("the products let go are released after the lock: a deinit may use the MetaController")
    func deinitMayUseTheScope() {
        final class Touchy: Sendable {
            let scope: MetaController
            init(_ scope: MetaController) { self.scope = scope }
            deinit { _ = scope.contains(.log) }
        }
        let session = MetaController()
        session.registerShared(Touchy.self) { Touchy($0) }
        _ = try? session.make(Touchy.self) as Touchy
        session.reset()   // would deadlock if released under the lock
        #expect(!session.contains(.log))
    }

    /// A session whose first build of `AvatarCache` signals `started`, then
    /// waits for `proceed`; each build names its number (`build 1`, ...).
    private func sessionWithAHeldBuild() -> (session: MetaController, started: DispatchSemaphore, proceed: DispatchSemaphore) {
        let session = MetaController()
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let builds = Lock(0)
        session.registerShared(AvatarCache.self) { _ in
            let build = builds.withLock { count in
                count += 1
                return count
            }
            if build == 1 {
                started.signal()
                proceed.wait()
            }
            return AvatarCache(user: "build \(build)")
        }
        return (session, started, proceed)
    }

    @Test("a shared product being made while the scope is reset goes to its request and is not kept")
    func resetDuringABuild() throws {
        let (session, started, proceed) = sessionWithAHeldBuild()
        let first = Lock<AvatarCache?>(nil)
        let done = TestThreads.onThread {
            let cache = try? session.make(AvatarCache.self) as AvatarCache
            first.withLock { $0 = cache }
        }
        started.wait()
        session.reset()
        proceed.signal()
        done.wait()
        #expect(first.withLock { $0 }?.user == "build 1")
        let next = try session.make(AvatarCache.self) as AvatarCache
        #expect(next.user == "build 2")
        #expect(try session.make(AvatarCache.self) === next)
    }

    @Test("a request waiting for a build the reset made stale makes a new product")
    func waiterAfterAStaleBuild() throws {
        let (session, started, proceed) = sessionWithAHeldBuild()
        let first = Lock<AvatarCache?>(nil)
        let second = Lock<AvatarCache?>(nil)
        let firstDone = TestThreads.onThread {
            let cache = try? session.make(AvatarCache.self) as AvatarCache
            first.withLock { $0 = cache }
        }
        started.wait()
        let secondDone = TestThreads.onThread {
            let cache = try? session.make(AvatarCache.self) as AvatarCache
            second.withLock { $0 = cache }
        }
        #expect(TestThreads.waitUntil { session.isAwaitingSharedProduct })
        session.reset()
        proceed.signal()
        firstDone.wait()
        secondDone.wait()
        #expect(first.withLock { $0 }?.user == "build 1")
        #expect(second.withLock { $0 }?.user == "build 2")
        #expect(try session.make(AvatarCache.self) === second.withLock { $0 })
    }

    @Test("resets racing requests, slot reads and sets, and registrations on other threads")
    func racingReset() throws {
        let (_, session, _) = signedIn(as: "ada")
        let rounds = 2_000
        let readers = (0..<2).map { _ in
            TestThreads.onThread {
                for round in 0..<rounds {
                    _ = try? session.make(AvatarCache.self) as AvatarCache
                    _ = session[AccountKey.self]?.user
                    if round % 100 == 0 {
                        session.registerShared(AvatarCache.self) { AvatarCache(user: $0[AccountKey.self]?.user) }
                    }
                }
            }
        }
        let writer = TestThreads.onThread {
            for round in 0..<rounds {
                session[AccountKey.self] = SignedInAccount(user: "user \(round)")
                session.reset()
            }
        }
        for thread in readers { thread.wait() }
        writer.wait()
        session.reset()
        #expect(session[AccountKey.self] == nil)
        session[AccountKey.self] = SignedInAccount(user: "last")
        #expect(try session.make(AvatarCache.self).user == "last")
    }
}

extension MetaController {
    /// Whether a request waits for the shared product of `AvatarCache` being made here.
    fileprivate var isAwaitingSharedProduct: Bool {
        state.withLock { state in
            guard case .awaited? = state.typeFactories[TypeKey(ObjectIdentifier(AvatarCache.self))] else { return false }
            return true
        }
    }
}
