// A stub of Apple's SwiftUI for compile checks on Linux (.ci/check-swiftui): the shape and the
// isolation of the declarations this repository's sources and articles use, with no behaviour.
// It is not SwiftUI: nothing here draws, observes or updates anything, and a declaration's
// body is whatever compiles.
//
// What it is for: code that uses SwiftUI must compile with strict concurrency against these
// declarations as it would against the Xcode 26 SDK, so each declaration carries the isolation
// of the SDK's (a main-actor protocol, a nonisolated modifier, a main-actor property).
// Where each declaration's isolation comes from is noted beside it: "Apple docs" means its
// page under developer.apple.com/documentation/swiftui/, which prints the SDK's declaration
// with its attributes (@MainActor, @preconcurrency, nonisolated); OpenSwiftUI
// (github.com/OpenSwiftUIProject/OpenSwiftUI, which mirrors SwiftUI's interface) was used to
// check shapes. The availability attributes are Apple's; the Linux compiler ignores Apple
// platforms' availability, so they document, and check nothing: an iOS 17 API used in a
// package whose minimum is iOS 16 without `if #available` compiles here and fails in Xcode.
// .ci/check-availability is what catches that for the standard library and Foundation.
@_exported import Combine
@_exported import Observation

// MARK: - Views

/// Apple docs: `@MainActor @preconcurrency protocol View`; `body` is
/// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// The value types below that conform to View are `nonisolated` in the SDK (their pages show
// no `@MainActor`; a conformance alone would make them main-actor in Swift 6), as
// `PreviewModifierContent`'s page spells out: `nonisolated struct PreviewModifierContent`.

/// Apple docs: `extension Never: View` (nonisolated); a body that never returns.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

/// Apple docs: `@resultBuilder struct ViewBuilder` (nonisolated, static members). Enough for
/// simple bodies: one to three views, `if`, `if`-`else`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> {
        TupleView((c0, c1))
    }
    public static func buildBlock<C0: View, C1: View, C2: View>(_ c0: C0, _ c1: C1, _ c2: C2) -> TupleView<(C0, C1, C2)> {
        TupleView((c0, c1, c2))
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> ConditionalContent<TrueContent, FalseContent>
    { ConditionalContent(first: first) }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> ConditionalContent<TrueContent, FalseContent>
    { ConditionalContent(second: second) }
}

/// Apple docs: `Optional: View where Wrapped: View` (what `buildIf` returns).
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

/// Apple docs: `@frozen struct TupleView<T>: View` (nonisolated).
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct TupleView<T>: View {
    public var value: T
    public init(_ value: T) { self.value = value }
    public var body: Never { fatalError() }
}

/// SwiftUI's `_ConditionalContent` (what `buildEither` returns), under a shorter name.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct ConditionalContent<TrueContent: View, FalseContent: View>: View {
    init(first: TrueContent) {}
    init(second: FalseContent) {}
    public var body: Never { fatalError() }
}

/// Apple docs: `@frozen struct EmptyView` (nonisolated), `init()`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

/// Apple docs: `@frozen struct Text` (nonisolated); `init(_ content: some StringProtocol)`,
/// `init(verbatim:)`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct Text: View, Equatable, Sendable {
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public var body: Never { fatalError() }
}

/// Apple docs: `@MainActor @preconcurrency struct Button<Label> where Label: View`; its
/// initializers are main-actor (the type's isolation) and the action is `@escaping () -> Void`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@MainActor @preconcurrency
public struct Button<Label: View>: View {
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError() }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {}
}

/// Apple docs: `@MainActor @preconcurrency struct List<SelectionValue, Content>`; here only
/// `init(content:)`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@MainActor @preconcurrency
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension List where SelectionValue == Never {
    public init(@ViewBuilder content: () -> Content) {}
}

/// Apple docs: `struct ForEach<Data, ID, Content> where Data: RandomAccessCollection,
/// ID: Hashable` (nonisolated); its content closure is `@escaping (Data.Element) -> Content`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

// MARK: - Apps and scenes

/// Apple docs: `@MainActor @preconcurrency protocol App`; `body` is
/// `@SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }`, and `init()`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
extension App {
    /// Apple docs: `@MainActor @preconcurrency static func main()`, what `@main` calls.
    @MainActor @preconcurrency public static func main() {}
}

/// Apple docs: `@MainActor @preconcurrency protocol Scene`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// Apple docs: `@resultBuilder struct SceneBuilder`; here one scene.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
@resultBuilder
public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// Apple docs: `@MainActor @preconcurrency struct WindowGroup<Content> where Content: View`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
@MainActor @preconcurrency
public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
extension Never: Scene {}

// MARK: - Dynamic properties

/// Apple docs: `protocol DynamicProperty` and `mutating func update()`, both nonisolated (the
/// page of `update()` shows no `@MainActor`, where the pages of main-actor members such as
/// `StateObject.wrappedValue` do), with a default implementation. The project's own notes
/// (DEVELOPERS.md) say `update()` is main-actor isolated from the iOS 18 SDK on; the two
/// sources disagree, so .ci/check-swiftui compiles the sources against both: this shape, and,
/// with `-D DYNAMICPROPERTY_UPDATE_MAINACTOR`, `@MainActor @preconcurrency mutating func update()`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
public protocol DynamicProperty {
    #if DYNAMICPROPERTY_UPDATE_MAINACTOR
    @MainActor @preconcurrency mutating func update()
    #else
    mutating func update()
    #endif
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension DynamicProperty {
    public mutating func update() {}
}

/// Apple docs: `protocol EnvironmentKey` (nonisolated), `static var defaultValue: Self.Value`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// Apple docs: `struct EnvironmentValues` (nonisolated), `init()`,
/// `subscript<K>(key: K.Type) -> K.Value where K: EnvironmentKey { get set }`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
public struct EnvironmentValues {
    public init() {}
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }
}

/// Apple docs: `@frozen @propertyWrapper struct Environment<Value>` (nonisolated),
/// `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`, `var wrappedValue: Value { get }`;
/// `Sendable where Value: Sendable` (OpenSwiftUI).
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    public var wrappedValue: Value { fatalError("a stub environment has no value") }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Environment: Sendable where Value: Sendable {}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension View {
    /// Apple docs: `nonisolated func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>,
    /// _ value: V) -> some View`.
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        ModifiedContent(content: self)
    }
}

extension View {
    /// Apple docs: `nonisolated func task(name:priority:file:line:_:)` (iOS 15), whose action is
    /// `sending @escaping @isolated(any) () async -> Void`; the name, file and line default, so
    /// `.task { … }` and `.task(priority:) { … }` are the calls apps write.
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        ModifiedContent(content: self)
    }
}

/// What a modifier returns (SwiftUI's `ModifiedContent`, without the modifier).
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
nonisolated public struct ModifiedContent<Content: View>: View {
    public var content: Content
    public var body: Never { fatalError() }
}

/// Apple docs: `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`
/// (nonisolated); `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value,
/// set: @escaping @isolated(any) @Sendable (Value) -> Void)`; `Sendable where Value: Sendable`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let get: @isolated(any) @Sendable () -> Value
    @preconcurrency
    public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {
        self.get = get
    }
    public static func constant(_ value: Value) -> Binding<Value> where Value: Sendable {
        Binding(get: { value }, set: { _ in })
    }
    public var wrappedValue: Value {
        get { fatalError("a stub binding has no value") }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { self }
    public init(projectedValue: Binding<Value>) { self = projectedValue }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { fatalError() }, set: { _ in })
    }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Binding: Sendable where Value: Sendable {}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension Binding: DynamicProperty {}

/// Apple docs: `@frozen @propertyWrapper struct State<Value>` (nonisolated);
/// `init(wrappedValue:)`, `init(initialValue:)`, `init() where Value: ExpressibleByNilLiteral`,
/// `var wrappedValue: Value { get nonmutating set }`, `var projectedValue: Binding<Value>`;
/// `Sendable where Value: Sendable`.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@propertyWrapper
public struct State<Value>: DynamicProperty {
    private let initial: Value
    public init(wrappedValue value: Value) { initial = value }
    public init(initialValue value: Value) { initial = value }
    public var wrappedValue: Value {
        get { initial }
        nonmutating set {}
    }
    public var projectedValue: Binding<Value> { Binding(get: { fatalError() }, set: { _ in }) }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension State where Value: ExpressibleByNilLiteral {
    public init() { initial = nil }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension State: Sendable where Value: Sendable {}

/// Apple docs: `@MainActor @propertyWrapper @preconcurrency @frozen struct ObservedObject<ObjectType>
/// where ObjectType: ObservableObject`; `@MainActor @preconcurrency var wrappedValue`,
/// `@MainActor @preconcurrency var projectedValue: ObservedObject<ObjectType>.Wrapper`;
/// `init(wrappedValue:)` and `init(initialValue:)` are `nonisolated`. Its `Wrapper` is
/// `@MainActor @dynamicMemberLookup @preconcurrency @frozen struct Wrapper`, Sendable.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@MainActor @preconcurrency @propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    @MainActor @preconcurrency @dynamicMemberLookup
    public struct Wrapper: Sendable {
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            Binding<Subject>(get: { fatalError() }, set: { _ in })
        }
    }
    nonisolated(unsafe) private let object: ObjectType
    nonisolated public init(wrappedValue: ObjectType) { object = wrappedValue }
    nonisolated public init(initialValue: ObjectType) { object = initialValue }
    @MainActor @preconcurrency public var wrappedValue: ObjectType { object }
    @MainActor @preconcurrency public var projectedValue: ObservedObject<ObjectType>.Wrapper { Wrapper() }
}

/// Apple docs: `@MainActor @frozen @propertyWrapper @preconcurrency struct StateObject<ObjectType>
/// where ObjectType: ObservableObject`; `nonisolated init(wrappedValue thunk: @autoclosure
/// @escaping () -> ObjectType)`; `@MainActor @preconcurrency var wrappedValue: ObjectType { get }`;
/// `@MainActor @preconcurrency var projectedValue: ObservedObject<ObjectType>.Wrapper { get }`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, visionOS 1, *)
@MainActor @preconcurrency @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    nonisolated(unsafe) private let thunk: () -> ObjectType
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { self.thunk = thunk }
    @MainActor @preconcurrency public var wrappedValue: ObjectType { thunk() }
    @MainActor @preconcurrency public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject<ObjectType>.Wrapper()
    }
}

/// Apple docs: `@dynamicMemberLookup @propertyWrapper struct Bindable<Value>` (nonisolated),
/// iOS 17; `init(wrappedValue: Value)` and `init(_ wrappedValue: Value)` where
/// `Value: AnyObject & Observable`; member bindings through `ReferenceWritableKeyPath`.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@dynamicMemberLookup @propertyWrapper
public struct Bindable<Value> {
    private var object: Value
    public var wrappedValue: Value {
        get { object }
        set { object = newValue }
    }
    public var projectedValue: Bindable<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { fatalError() }, set: { _ in })
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Bindable where Value: AnyObject, Value: Observable {
    public init(wrappedValue: Value) { object = wrappedValue }
    public init(_ wrappedValue: Value) { object = wrappedValue }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension Bindable: DynamicProperty {}

// MARK: - Previews (DeveloperToolsSupport's, re-exported by SwiftUI)

/// Apple docs (DeveloperToolsSupport): `@MainActor struct Preview`; its trait kind is
/// `enum ViewTraits` (nonisolated).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor
public struct Preview {
    nonisolated public enum ViewTraits {}
}

/// Apple docs: `struct PreviewTrait<T>` (nonisolated).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
public struct PreviewTrait<T> {}

/// Apple docs: `@MainActor protocol PreviewModifier` (iOS 18); `associatedtype Context = Void`;
/// `@MainActor static func makeSharedContext() async throws -> Self.Context`;
/// `@ContentBuilder @MainActor func body(content: Self.Content, context: Self.Context) -> Self.Body`;
/// `typealias Content = PreviewModifierContent`, which is `nonisolated struct ... : View`.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
public protocol PreviewModifier {
    associatedtype Context = Void
    associatedtype Body: View
    typealias Content = PreviewModifierContent
    @MainActor static func makeSharedContext() async throws -> Self.Context
    @ViewBuilder @MainActor func body(content: Self.Content, context: Self.Context) -> Self.Body
}

@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
extension PreviewModifier where Context == Void {
    public static func makeSharedContext() async throws {}
}

/// Apple docs: `nonisolated struct PreviewModifierContent: View`.
@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
nonisolated public struct PreviewModifierContent: View {
    public var body: Never { fatalError() }
}

@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
extension PreviewTrait where T == Preview.ViewTraits {
    /// Apple docs (DeveloperToolsSupport): `@MainActor static func modifier(_ modifier: some
    /// PreviewModifier) -> PreviewTrait<T>` (iOS 18).
    @MainActor
    public static func modifier(_ modifier: some PreviewModifier) -> PreviewTrait<T> { PreviewTrait() }
}
