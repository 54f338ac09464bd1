@testable import CLI
import Core
import Foundation
import Testing
import TestSupport

/// `-o FILE` is checked before any request (Tests/EndToEndTests/OutputFileTests.swift)
/// and again just before the rename: a link planted at FILE while the flow
/// ran is not replaced either (README "Writing the result to a file").
struct OutputFileCommitTests {
    @Test func aLinkPlantedDuringTheRunIsNotReplaced() throws {
        let dir = NSTemporaryDirectory() + "authcode-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/token.json"
        let target = dir + "/elsewhere"
        try "old\n".write(toFile: target, atomically: false, encoding: .utf8)

        let file = try OutputFile(path: path, base: CapturingConsole())
        #expect(file.writeOut("{\"access_token\":\"at-1\"}\n"))
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(file.commit() == "it is a symbolic link (-o replaces the file it names, so it would replace the link, not write through it)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["elsewhere", "token.json"], "the temporary file is gone")
    }

    @Test func aRegularFileIsReplaced() throws {
        let dir = NSTemporaryDirectory() + "authcode-output-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/token.json"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let file = try OutputFile(path: path, base: CapturingConsole())
        #expect(file.writeOut("new\n"))
        #expect(file.commit() == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }
}
