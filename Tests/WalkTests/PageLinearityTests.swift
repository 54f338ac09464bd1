import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

/// Every pass over a page is linear in its size, whatever its shape: a page
/// of deeply nested elements once cost ~11 µs per element in the error-text
/// scan (each tag searched the stack of open elements), and a form of
/// thousands of empty fields a quadratic name check. Proved without any
/// absolute time: by counting the scan's work (deterministic), and by the
/// ratio of two input sizes for whole-page handling (4× the page must cost
/// less than 6× the time; a quadratic pass costs 16×).
@Suite struct PageLinearityTests {
    enum Shape: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case nestedDivs, nestedAlerts, nestedLiveRegions, inlineUnderParagraphs, unmatchedEndTags, listItems, hiddenNesting, mixedEndTags

        var testDescription: String { rawValue }

        func html(_ n: Int) -> String {
            func times(_ text: String, _ count: Int = n) -> String { String(repeating: text, count: count) }
            switch self {
            case .nestedDivs: return times("<div>") + "Invalid password" + times("</div>")
            case .nestedAlerts: return times(#"<div class="alert">"#) + "Invalid password" + times("</div>")
            case .nestedLiveRegions: return times(#"<div role="alert">"#) + "Invalid password" + times("</div>")
            // Every <div> may close a <p> below a run of inline elements.
            case .inlineUnderParagraphs: return times("<p><b><i>x") + times("<div>x")
            // End tags that match nothing open: each once searched the whole stack.
            case .unmatchedEndTags: return times("<section>") + times("</aside>") + "x"
            case .listItems: return times("<li><span>item")
            case .hiddenNesting: return times("<div hidden>") + times(#"<div class="error">x"#)
            case .mixedEndTags: return times("<div><span><em>") + times("</span></div>")
            }
        }
    }

    static func errorTextSteps(_ html: String) -> Int {
        var steps = 0
        _ = LoginErrorText.find(in: html, standing: ["x"], steps: &steps)
        return steps
    }

    static func standingSteps(_ html: String) -> Int {
        var steps = 0
        _ = LoginErrorText.texts(in: html, steps: &steps)
        return steps
    }

    /// Below and far above any depth cap: 4× the elements, less than 6×
    /// the work (quadratic work would be 16×).
    @Test(arguments: Shape.allCases, [100, 5_000])
    func errorTextWorkIsLinear(shape: Shape, n: Int) {
        let small = Self.errorTextSteps(shape.html(n)), large = Self.errorTextSteps(shape.html(4 * n))
        #expect(Double(large) < 6 * Double(small), "\(shape): \(small) → \(large) steps")
        let standingSmall = Self.standingSteps(shape.html(n)), standingLarge = Self.standingSteps(shape.html(4 * n))
        #expect(Double(standingLarge) < 6 * Double(standingSmall), "\(shape): \(standingSmall) → \(standingLarge) steps")
    }

    /// The work per tag does not grow with the nesting: bounded by the open
    /// candidates each text reaches (LoginErrorText.maxOpenCandidates).
    @Test(arguments: Shape.allCases)
    func errorTextWorkPerTagIsBounded(shape: Shape) {
        let html = shape.html(20_000)
        var tags = 0
        var tokenizer = HTMLTokenizer(html)
        while let token = tokenizer.next() { if case .text = token {} else { tags += 1 } }
        let bound = 4 * (LoginErrorText.maxOpenCandidates + 2) * tags
        #expect(Self.errorTextSteps(html) < bound, "\(shape)")
    }

    // MARK: - Whole pages, by CPU-time ratio

    enum PageShape: String, CaseIterable, Sendable {
        case nestedDivs, unmatchedEndTags, nestedAlerts, emptyFields, paragraphs

        func html(_ n: Int) -> String {
            func times(_ text: String) -> String { String(repeating: text, count: n) }
            let login = #"<form method="post" action="/login"><input name="username"><input type="password" name="pw">"#
            switch self {
            case .nestedDivs: return times("<div>") + login + "</form>" + times("</div>")
            case .unmatchedEndTags: return times("<section>") + times("</aside>") + login + "</form>"
            case .nestedAlerts: return times(#"<div class="alert">x"#) + login + "</form>" + times("</div>")
            // A login form with thousands of empty fields and no --form value
            // for its password: the "asks for …" list must stay linear.
            case .emptyFields: return login + (0..<n).map { "<input name=f\($0)>" }.joined() + "</form>"
            case .paragraphs: return login + times("<p><b>x") + "</form>"
            }
        }
    }

    /// What the walk does with a login page sent back after credentials:
    /// forms, the choice, the fill, the rejection and its text, the banners.
    static func handle(_ html: String) {
        let handler = PageHandler(target: RedirectTarget(URIReference("http://127.0.0.1:8765/cb")!),
                                  formValues: [NameValue("username", "alice")], submit: nil,
                                  trace: Trace(enabled: false, redactor: Redactor(), console: CapturingConsole(), names: .standard))
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(html.utf8))
        _ = try? handler.handle(response, at: "http://127.0.0.1:1/login")
        _ = LoginRejection.failure(response, at: "login", standing: LoginErrorText.texts(in: html))
        _ = handler.isRejection(response, to: HTTPRequest(method: "POST", url: "http://127.0.0.1:1/login"))
        _ = HTMLFormParser.title(in: html)
        _ = ScriptPage.holdsScripts(html)
    }

    /// Four times the page, about four times this thread's CPU time
    /// (TestSupport/Growth.swift: CPU time, not the wall clock, so a busy
    /// machine does not tip it; quadratic work goes far past the limit).
    @Test(arguments: PageShape.allCases)
    func pageHandlingTimeIsLinear(shape: PageShape) {
        let ratio = Growth.ratio(size: 2_000) { n in
            let html = shape.html(n)
            Self.handle(html)
        }
        #expect(ratio < Growth.linearLimit, "\(shape): 4× the page took \(ratio)× the CPU time")
    }
}
