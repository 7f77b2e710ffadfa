import Foundation
import Testing

/// The snippets of the "Servers: request scope" article and of the README's server section are
/// excerpts of this example: each must appear, line by line, in one of its source or test files,
/// which build and run here. A snippet edited in the docs and not in the code (or the reverse)
/// fails this test.
@Suite struct DocumentationTests {
    static let example = URL(fileURLWithPath: #filePath)  // <example>/Tests/TodoKitTests/this file
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let repository = example.deletingLastPathComponent().deletingLastPathComponent()

    static let documents = [
        "Sources/Syringe/Syringe.docc/Articles/ServersRequestScope.md",
        "README.md",
    ]

    @Test(arguments: documents) func everySnippetIsAnExcerptOfTheExample(document: String) throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
        let snippets = Self.swiftBlocks(in: text, section: document == "README.md" ? "### Servers" : nil)
        #expect(!snippets.isEmpty)
        let sources = try Self.exampleFiles().map(Self.trimmedLines)
        for snippet in snippets {
            let lines = Self.trimmedLines(snippet)
            let found = sources.contains { file in
                file.indices.contains { start in file[start...].starts(with: lines) }
            }
            #expect(found, "not an excerpt of Examples/TodoServer:\n\(snippet)")
        }
    }

    /// The ```swift blocks of `text`, or of its `section` (up to the next heading of that level).
    static func swiftBlocks(in text: String, section: String?) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if let section, let start = lines.firstIndex(where: { $0.hasPrefix(section) }) {
            let level = section.prefix { $0 == "#" }
            let end = lines[(start + 1)...].firstIndex {
                $0.hasPrefix("#") && $0.prefix { $0 == "#" }.count <= level.count
            }
            lines = Array(lines[start..<(end ?? lines.endIndex)])
        }
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func exampleFiles() throws -> [String] {
        try ["Sources", "Tests"].flatMap { folder in
            let root = example.appendingPathComponent(folder)
            let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            return try paths.filter { $0.hasSuffix(".swift") }.map {
                try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)
            }
        }
    }

    static func trimmedLines(_ text: String) -> [String] {
        text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
