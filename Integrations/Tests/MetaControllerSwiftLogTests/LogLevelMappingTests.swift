import Logging
import MetaController
import MetaControllerSwiftLog
import Testing

struct LogLevelMappingTests {
    @Test func theSevenLevelsMapOneToOneByName() {
        #expect(LogLevel.allCases.count == Logger.Level.allCases.count)
        for level in LogLevel.allCases {
            #expect(Logger.Level(level).rawValue == level.rawValue)
            #expect(LogLevel(Logger.Level(level)) == level)
        }
        for level in Logger.Level.allCases {
            #expect(Logger.Level(LogLevel(level)) == level)
        }
    }

    @Test func theOrderIsTheSame() {
        #expect(LogLevel.allCases.map { Logger.Level($0) } == Logger.Level.allCases.sorted())
    }
}
