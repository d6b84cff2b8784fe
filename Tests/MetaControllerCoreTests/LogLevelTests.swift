import Foundation
import MetaController
import Testing
import MetaControllerTestSupport

struct LogLevelTests {
    @Test func levelsAreOrderedFromTraceToCritical() {
        #expect(LogLevel.allCases == [.trace, .debug, .info, .notice, .warning, .error, .critical])
        #expect(LogLevel.allCases == LogLevel.allCases.sorted())
        #expect(LogLevel.warning >= .info)
        #expect(!(LogLevel.debug >= .info))
    }

    @Test func descriptionAndCodingUseTheName() throws {
        #expect(LogLevel.notice.description == "notice")
        let data = try JSONEncoder().encode([LogLevel.error])
        #expect(String(decoding: data, as: UTF8.self) == #"["error"]"#)
        #expect(try JSONDecoder().decode([LogLevel].self, from: Data(#"["trace"]"#.utf8)) == [.trace])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LogLevel].self, from: Data(#"["loud"]"#.utf8))
        }
    }
}
