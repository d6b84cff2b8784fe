// Every public type of the module, also as a member of the class: `MetaController.Location`.
//
// The module and its main class are both named MetaController, so in an app's
// code `MetaController.Location` looks for a member of the class and never finds
// the module's type. These aliases make that spelling work, which is the way out
// when an app declares a type of the same name (its own `Location`, or
// `HTTPMethod` from another library): see Docs/Bootstrapping.md, "Names".
//
// An alias inside the class cannot name the top-level type directly, since there
// `Location` is the alias itself, nor go through an internal alias, which a
// public one may not use. So each goes through a public top-level alias whose
// underscored name keeps it out of the documentation and of code completion.
// A new public type gets its two lines here; types whose name starts with
// `MetaController` collide with nothing and have none.
//
// swift-format-ignore-file: NoLeadingUnderscores

/// The spelling `MetaController.ApiConfiguration` goes through; use that.
public typealias _MetaControllerApiConfiguration = ApiConfiguration
/// The spelling `MetaController.ApiController` goes through; use that.
public typealias _MetaControllerApiController = ApiController
/// The spelling `MetaController.ApiError` goes through; use that.
public typealias _MetaControllerApiError = ApiError
/// The spelling `MetaController.ApiRequest` goes through; use that.
public typealias _MetaControllerApiRequest = ApiRequest
/// The spelling `MetaController.ApiResponse` goes through; use that.
public typealias _MetaControllerApiResponse = ApiResponse
/// The spelling `MetaController.AppConfiguration` goes through; use that.
public typealias _MetaControllerAppConfiguration = AppConfiguration
/// The spelling `MetaController.AppEnvironment` goes through; use that.
public typealias _MetaControllerAppEnvironment = AppEnvironment
/// The spelling `MetaController.ConfigurationError` goes through; use that.
public typealias _MetaControllerConfigurationError = ConfigurationError
/// The spelling `MetaController.DataChange` goes through; use that.
public typealias _MetaControllerDataChange = DataChange
/// The spelling `MetaController.DataController` goes through; use that.
public typealias _MetaControllerDataController = DataController
/// The spelling `MetaController.DataStoreError` goes through; use that.
public typealias _MetaControllerDataStoreError = DataStoreError
/// The spelling `MetaController.DeviceLocationController` goes through; use that.
public typealias _MetaControllerDeviceLocationController = DeviceLocationController
/// The spelling `MetaController.FileDataController` goes through; use that.
public typealias _MetaControllerFileDataController = FileDataController
/// The spelling `MetaController.FileLogDestination` goes through; use that.
public typealias _MetaControllerFileLogDestination = FileLogDestination
/// The spelling `MetaController.GPXRoute` goes through; use that.
public typealias _MetaControllerGPXRoute = GPXRoute
/// The spelling `MetaController.HTTPMethod` goes through; use that.
public typealias _MetaControllerHTTPMethod = HTTPMethod
/// The spelling `MetaController.JSONValue` goes through; use that.
public typealias _MetaControllerJSONValue = JSONValue
/// The spelling `MetaController.Location` goes through; use that.
public typealias _MetaControllerLocation = Location
/// The spelling `MetaController.LocationAccuracyAuthorization` goes through; use that.
public typealias _MetaControllerLocationAccuracyAuthorization = LocationAccuracyAuthorization
/// The spelling `MetaController.LocationAuthorization` goes through; use that.
public typealias _MetaControllerLocationAuthorization = LocationAuthorization
/// The spelling `MetaController.LocationController` goes through; use that.
public typealias _MetaControllerLocationController = LocationController
/// The spelling `MetaController.LocationError` goes through; use that.
public typealias _MetaControllerLocationError = LocationError
/// The spelling `MetaController.LocationSettings` goes through; use that.
public typealias _MetaControllerLocationSettings = LocationSettings
/// The spelling `MetaController.LogConfiguration` goes through; use that.
public typealias _MetaControllerLogConfiguration = LogConfiguration
/// The spelling `MetaController.LogController` goes through; use that.
public typealias _MetaControllerLogController = LogController
/// The spelling `MetaController.LogDestination` goes through; use that.
public typealias _MetaControllerLogDestination = LogDestination
/// The spelling `MetaController.LogDestinationConfiguration` goes through; use that.
public typealias _MetaControllerLogDestinationConfiguration = LogDestinationConfiguration
/// The spelling `MetaController.LogEntry` goes through; use that.
public typealias _MetaControllerLogEntry = LogEntry
/// The spelling `MetaController.LogFormat` goes through; use that.
public typealias _MetaControllerLogFormat = LogFormat
/// The spelling `MetaController.LogLevel` goes through; use that.
public typealias _MetaControllerLogLevel = LogLevel
/// The spelling `MetaController.LogMessage` goes through; use that.
public typealias _MetaControllerLogMessage = LogMessage
/// The spelling `MetaController.LogPrivacy` goes through; use that.
public typealias _MetaControllerLogPrivacy = LogPrivacy
/// The spelling `MetaController.LogSetupError` goes through; use that.
public typealias _MetaControllerLogSetupError = LogSetupError
/// The spelling `MetaController.MemoryDataController` goes through; use that.
public typealias _MetaControllerMemoryDataController = MemoryDataController
/// The spelling `MetaController.MemoryLogDestination` goes through; use that.
public typealias _MetaControllerMemoryLogDestination = MemoryLogDestination
/// The spelling `MetaController.NotificationController` goes through; use that.
public typealias _MetaControllerNotificationController = NotificationController
/// The spelling `MetaController.Property` goes through; use that.
public typealias _MetaControllerProperty = Property
/// The spelling `MetaController.ObservableProperty` goes through; use that.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
public typealias _MetaControllerObservableProperty = ObservableProperty
/// The spelling `MetaController.PushNotification` goes through; use that.
public typealias _MetaControllerPushNotification = PushNotification
/// The spelling `MetaController.PushNotificationError` goes through; use that.
public typealias _MetaControllerPushNotificationError = PushNotificationError
/// The spelling `MetaController.RetryPolicy` goes through; use that.
public typealias _MetaControllerRetryPolicy = RetryPolicy
/// The spelling `MetaController.Signal` goes through; use that.
public typealias _MetaControllerSignal = Signal
/// The spelling `MetaController.SignalDelivery` goes through; use that.
public typealias _MetaControllerSignalDelivery = SignalDelivery
/// The spelling `MetaController.Signals` goes through; use that.
public typealias _MetaControllerSignals = Signals
/// The spelling `MetaController.SignalsError` goes through; use that.
public typealias _MetaControllerSignalsError = SignalsError
/// The spelling `MetaController.SimulatedLocationController` goes through; use that.
public typealias _MetaControllerSimulatedLocationController = SimulatedLocationController
/// The spelling `MetaController.StandardLogController` goes through; use that.
public typealias _MetaControllerStandardLogController = StandardLogController
/// The spelling `MetaController.StandardNotificationController` goes through; use that.
public typealias _MetaControllerStandardNotificationController = StandardNotificationController
/// The spelling `MetaController.StreamLogDestination` goes through; use that.
public typealias _MetaControllerStreamLogDestination = StreamLogDestination
/// The spelling `MetaController.SubscriptionToken` goes through; use that.
public typealias _MetaControllerSubscriptionToken = SubscriptionToken
/// The spelling `MetaController.SystemLogDestination` goes through; use that.
public typealias _MetaControllerSystemLogDestination = SystemLogDestination
/// The spelling `MetaController.URLSessionApiController` goes through; use that.
public typealias _MetaControllerURLSessionApiController = URLSessionApiController

/// The spelling `MetaController.LogMetadata` goes through; use that.
public typealias _MetaControllerLogMetadata = LogMetadata
/// The spelling `MetaController.WeakMetaControllerReference` goes through; use that.
public typealias _MetaControllerWeakMetaControllerReference = WeakMetaControllerReference
/// The spelling `MetaController.ApiControllerKey` goes through; use that.
public typealias _MetaControllerApiControllerKey = ApiControllerKey
/// The spelling `MetaController.DataControllerKey` goes through; use that.
public typealias _MetaControllerDataControllerKey = DataControllerKey
/// The spelling `MetaController.LocationControllerKey` goes through; use that.
public typealias _MetaControllerLocationControllerKey = LocationControllerKey
/// The spelling `MetaController.LogControllerKey` goes through; use that.
public typealias _MetaControllerLogControllerKey = LogControllerKey
/// The spelling `MetaController.NotificationControllerKey` goes through; use that.
public typealias _MetaControllerNotificationControllerKey = NotificationControllerKey
extension MetaController {
    /// The module's `ApiConfiguration`, also reachable as `MetaController.ApiConfiguration` when an app declares a type of the same name.
    public typealias ApiConfiguration = _MetaControllerApiConfiguration

    /// The module's `ApiController`, also reachable as `MetaController.ApiController` when an app declares a type of the same name.
    public typealias ApiController = _MetaControllerApiController

    /// The module's `ApiError`, also reachable as `MetaController.ApiError` when an app declares a type of the same name.
    public typealias ApiError = _MetaControllerApiError

    /// The module's `ApiRequest`, also reachable as `MetaController.ApiRequest` when an app declares a type of the same name.
    public typealias ApiRequest = _MetaControllerApiRequest

    /// The module's `ApiResponse`, also reachable as `MetaController.ApiResponse` when an app declares a type of the same name.
    public typealias ApiResponse = _MetaControllerApiResponse

    /// The module's `AppConfiguration`, also reachable as `MetaController.AppConfiguration` when an app declares a type of the same name.
    public typealias AppConfiguration = _MetaControllerAppConfiguration

    /// The module's `AppEnvironment`, also reachable as `MetaController.AppEnvironment` when an app declares a type of the same name.
    public typealias AppEnvironment = _MetaControllerAppEnvironment

    /// The module's `ConfigurationError`, also reachable as `MetaController.ConfigurationError` when an app declares a type of the same name.
    public typealias ConfigurationError = _MetaControllerConfigurationError

    /// The module's `DataChange`, also reachable as `MetaController.DataChange` when an app declares a type of the same name.
    public typealias DataChange = _MetaControllerDataChange

    /// The module's `DataController`, also reachable as `MetaController.DataController` when an app declares a type of the same name.
    public typealias DataController = _MetaControllerDataController

    /// The module's `DataStoreError`, also reachable as `MetaController.DataStoreError` when an app declares a type of the same name.
    public typealias DataStoreError = _MetaControllerDataStoreError

    /// The module's `DeviceLocationController`, also reachable as `MetaController.DeviceLocationController` when an app declares a type of the same name.
    public typealias DeviceLocationController = _MetaControllerDeviceLocationController

    /// The module's `FileDataController`, also reachable as `MetaController.FileDataController` when an app declares a type of the same name.
    public typealias FileDataController = _MetaControllerFileDataController

    /// The module's `FileLogDestination`, also reachable as `MetaController.FileLogDestination` when an app declares a type of the same name.
    public typealias FileLogDestination = _MetaControllerFileLogDestination

    /// The module's `GPXRoute`, also reachable as `MetaController.GPXRoute` when an app declares a type of the same name.
    public typealias GPXRoute = _MetaControllerGPXRoute

    /// The module's `HTTPMethod`, also reachable as `MetaController.HTTPMethod` when an app declares a type of the same name.
    public typealias HTTPMethod = _MetaControllerHTTPMethod

    /// The module's `JSONValue`, also reachable as `MetaController.JSONValue` when an app declares a type of the same name.
    public typealias JSONValue = _MetaControllerJSONValue

    /// The module's `Location`, also reachable as `MetaController.Location` when an app declares a type of the same name.
    public typealias Location = _MetaControllerLocation

    /// The module's `LocationAccuracyAuthorization`, also reachable as `MetaController.LocationAccuracyAuthorization` when an app declares a type of the same name.
    public typealias LocationAccuracyAuthorization = _MetaControllerLocationAccuracyAuthorization

    /// The module's `LocationAuthorization`, also reachable as `MetaController.LocationAuthorization` when an app declares a type of the same name.
    public typealias LocationAuthorization = _MetaControllerLocationAuthorization

    /// The module's `LocationController`, also reachable as `MetaController.LocationController` when an app declares a type of the same name.
    public typealias LocationController = _MetaControllerLocationController

    /// The module's `LocationError`, also reachable as `MetaController.LocationError` when an app declares a type of the same name.
    public typealias LocationError = _MetaControllerLocationError

    /// The module's `LocationSettings`, also reachable as `MetaController.LocationSettings` when an app declares a type of the same name.
    public typealias LocationSettings = _MetaControllerLocationSettings

    /// The module's `LogConfiguration`, also reachable as `MetaController.LogConfiguration` when an app declares a type of the same name.
    public typealias LogConfiguration = _MetaControllerLogConfiguration

    /// The module's `LogController`, also reachable as `MetaController.LogController` when an app declares a type of the same name.
    public typealias LogController = _MetaControllerLogController

    /// The module's `LogDestination`, also reachable as `MetaController.LogDestination` when an app declares a type of the same name.
    public typealias LogDestination = _MetaControllerLogDestination

    /// The module's `LogDestinationConfiguration`, also reachable as `MetaController.LogDestinationConfiguration` when an app declares a type of the same name.
    public typealias LogDestinationConfiguration = _MetaControllerLogDestinationConfiguration

    /// The module's `LogEntry`, also reachable as `MetaController.LogEntry` when an app declares a type of the same name.
    public typealias LogEntry = _MetaControllerLogEntry

    /// The module's `LogFormat`, also reachable as `MetaController.LogFormat` when an app declares a type of the same name.
    public typealias LogFormat = _MetaControllerLogFormat

    /// The module's `LogLevel`, also reachable as `MetaController.LogLevel` when an app declares a type of the same name.
    public typealias LogLevel = _MetaControllerLogLevel

    /// The module's `LogMessage`, also reachable as `MetaController.LogMessage` when an app declares a type of the same name.
    public typealias LogMessage = _MetaControllerLogMessage

    /// The module's `LogPrivacy`, also reachable as `MetaController.LogPrivacy` when an app declares a type of the same name.
    public typealias LogPrivacy = _MetaControllerLogPrivacy

    /// The module's `LogSetupError`, also reachable as `MetaController.LogSetupError` when an app declares a type of the same name.
    public typealias LogSetupError = _MetaControllerLogSetupError

    /// The module's `MemoryDataController`, also reachable as `MetaController.MemoryDataController` when an app declares a type of the same name.
    public typealias MemoryDataController = _MetaControllerMemoryDataController

    /// The module's `MemoryLogDestination`, also reachable as `MetaController.MemoryLogDestination` when an app declares a type of the same name.
    public typealias MemoryLogDestination = _MetaControllerMemoryLogDestination

    /// The module's `NotificationController`, also reachable as `MetaController.NotificationController` when an app declares a type of the same name.
    public typealias NotificationController = _MetaControllerNotificationController

    /// The module's `Property`, also reachable as `MetaController.Property` when an app declares a type of the same name.
    public typealias Property = _MetaControllerProperty

    /// The module's `ObservableProperty`, also reachable as `MetaController.ObservableProperty` when an app declares a type of the same name.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    public typealias ObservableProperty = _MetaControllerObservableProperty

    /// The module's `PushNotification`, also reachable as `MetaController.PushNotification` when an app declares a type of the same name.
    public typealias PushNotification = _MetaControllerPushNotification

    /// The module's `PushNotificationError`, also reachable as `MetaController.PushNotificationError` when an app declares a type of the same name.
    public typealias PushNotificationError = _MetaControllerPushNotificationError

    /// The module's `RetryPolicy`, also reachable as `MetaController.RetryPolicy` when an app declares a type of the same name.
    public typealias RetryPolicy = _MetaControllerRetryPolicy

    /// The module's `Signal`, also reachable as `MetaController.Signal` when an app declares a type of the same name.
    public typealias Signal = _MetaControllerSignal

    /// The module's `SignalDelivery`, also reachable as `MetaController.SignalDelivery` when an app declares a type of the same name.
    public typealias SignalDelivery = _MetaControllerSignalDelivery

    /// The module's `Signals`, also reachable as `MetaController.Signals` when an app declares a type of the same name.
    public typealias Signals = _MetaControllerSignals

    /// The module's `SignalsError`, also reachable as `MetaController.SignalsError` when an app declares a type of the same name.
    public typealias SignalsError = _MetaControllerSignalsError

    /// The module's `SimulatedLocationController`, also reachable as `MetaController.SimulatedLocationController` when an app declares a type of the same name.
    public typealias SimulatedLocationController = _MetaControllerSimulatedLocationController

    /// The module's `StandardLogController`, also reachable as `MetaController.StandardLogController` when an app declares a type of the same name.
    public typealias StandardLogController = _MetaControllerStandardLogController

    /// The module's `StandardNotificationController`, also reachable as `MetaController.StandardNotificationController` when an app declares a type of the same name.
    public typealias StandardNotificationController = _MetaControllerStandardNotificationController

    /// The module's `StreamLogDestination`, also reachable as `MetaController.StreamLogDestination` when an app declares a type of the same name.
    public typealias StreamLogDestination = _MetaControllerStreamLogDestination

    /// The module's `SubscriptionToken`, also reachable as `MetaController.SubscriptionToken` when an app declares a type of the same name.
    public typealias SubscriptionToken = _MetaControllerSubscriptionToken

    /// The module's `SystemLogDestination`, also reachable as `MetaController.SystemLogDestination` when an app declares a type of the same name.
    public typealias SystemLogDestination = _MetaControllerSystemLogDestination

    /// The module's `URLSessionApiController`, also reachable as `MetaController.URLSessionApiController` when an app declares a type of the same name.
    public typealias URLSessionApiController = _MetaControllerURLSessionApiController

    /// The module's `LogMetadata`, also reachable as `MetaController.LogMetadata` when an app declares a type of the same name.
    public typealias LogMetadata = _MetaControllerLogMetadata

    /// The module's `WeakMetaControllerReference`, also reachable as `MetaController.WeakMetaControllerReference` when an app declares a type of the same name.
    public typealias WeakMetaControllerReference = _MetaControllerWeakMetaControllerReference

    /// The module's `ApiControllerKey`, also reachable as `MetaController.ApiControllerKey` when an app declares a type of the same name.
    public typealias ApiControllerKey = _MetaControllerApiControllerKey

    /// The module's `DataControllerKey`, also reachable as `MetaController.DataControllerKey` when an app declares a type of the same name.
    public typealias DataControllerKey = _MetaControllerDataControllerKey

    /// The module's `LocationControllerKey`, also reachable as `MetaController.LocationControllerKey` when an app declares a type of the same name.
    public typealias LocationControllerKey = _MetaControllerLocationControllerKey

    /// The module's `LogControllerKey`, also reachable as `MetaController.LogControllerKey` when an app declares a type of the same name.
    public typealias LogControllerKey = _MetaControllerLogControllerKey

    /// The module's `NotificationControllerKey`, also reachable as `MetaController.NotificationControllerKey` when an app declares a type of the same name.
    public typealias NotificationControllerKey = _MetaControllerNotificationControllerKey
}
