// A stub of Apple's Combine for compile checks on Linux (.ci/check-swiftui): the shape and the
// isolation of the few declarations this repository's sources and articles use, with no
// behaviour. It is not Combine: nothing here publishes anything.
//
// Where each declaration's shape and isolation come from: Apple's documentation pages for
// Combine (developer.apple.com/documentation/combine/...), as of the Xcode 26 SDK. All of it is
// nonisolated there, as here. The availability attributes are Apple's; the Linux compiler
// ignores Apple platforms' availability, so they document, and check nothing.

/// Combine's `Publisher`, reduced to its two associated types.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

/// The publisher of an `ObservableObject` class that declares no `objectWillChange` of its own.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
final public class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    public init() {}
    /// Sends the change event to the subscribers (here: none).
    final public func send() {}
}

/// A type of object with a publisher that emits before the object has changed.
///
/// In the SDK the compiler synthesizes `objectWillChange` for a class whose publisher is the
/// default; here a protocol extension makes a new publisher, which is enough to compile.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
    var objectWillChange: ObjectWillChangePublisher { get }
}

@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// A property wrapper that publishes its property (here: only stores it). Usable in classes.
@available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, visionOS 1, *)
@propertyWrapper
public struct Published<Value> {
    public var wrappedValue: Value
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    public init(initialValue: Value) { self.wrappedValue = initialValue }
}
