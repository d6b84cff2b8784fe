// The umbrella module: `import MetaController` brings every library module, as before the
// package was split. An app that wants less depends on the products it names
// (MetaControllerCore alone, or with some of the controller families).
@_exported public import MetaControllerConfiguration
@_exported public import MetaControllerCore
@_exported public import MetaControllerGraphModule
@_exported public import MetaControllerLocation
@_exported public import MetaControllerLogging
@_exported public import MetaControllerNetworking
@_exported public import MetaControllerNotifications
@_exported public import MetaControllerStorage
