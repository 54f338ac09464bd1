@testable import Walk
@testable import HTTP
import Testing

/// Walk/FormTarget.swift: the action through the URL Standard's first steps,
/// the `<base href>`, the pressed control's formaction/formmethod.
struct FormTargetTests {
    static let page = "https://idp.example/login/page?txn=1#top"

    @Test(arguments: [
        ("login", "https://idp.example/login/login"),
        ("\n  lo\tg\nin  ", "https://idp.example/login/login"),
        ("\u{0}\u{1F} /next \u{0}", "https://idp.example/next"),
        ("/a b", "https://idp.example/a%20b"),
        ("/a\u{1}b", "https://idp.example/a%01b"),
        ("#", "https://idp.example/login/page?txn=1"),
        ("?x=1#frag", "https://idp.example/login/page?x=1"),
        ("https://other.example/\nsubmit", "https://other.example/submit"),
    ])
    func actionAsABrowserReadsIt(action: String, expected: String) throws {
        let target = try #require(FormTarget(pageURL: Self.page, baseHref: nil))
        #expect(target.url(of: HTMLForm(action: action, method: .post))?.text == expected)
    }

    @Test func anEmptyOrAbsentActionIsThePageEvenWithABase() throws {
        let target = try #require(FormTarget(pageURL: Self.page, baseHref: "https://base.example/dir/"))
        #expect(target.url(of: HTMLForm(action: "", method: .post))?.text == "https://idp.example/login/page?txn=1")
        #expect(target.url(of: HTMLForm(action: nil, method: .post))?.text == "https://idp.example/login/page?txn=1")
        #expect(target.url(of: HTMLForm(action: "go", method: .post))?.text == "https://base.example/dir/go")
        #expect(target.url(of: HTMLForm(action: "  ", method: .post))?.text == "https://base.example/dir/", "spaces are not empty: the base itself")
    }

    @Test(arguments: [
        ("/sub/", "https://idp.example/sub/x"),
        (" \n../up/ ", "https://idp.example/up/x"),
        ("https://[::1", "https://idp.example/login/x"),  // a base that does not parse is no base
    ])
    func baseHref(href: String, expected: String) throws {
        let target = try #require(FormTarget(pageURL: Self.page, baseHref: href))
        #expect(target.url(of: HTMLForm(action: "x", method: .post))?.text == expected)
    }

    @Test func thePressedControlWins() throws {
        let target = try #require(FormTarget(pageURL: Self.page, baseHref: nil))
        let form = HTMLForm(action: "wrong", method: .get)
        let button = HTMLField(kind: .submit, name: "go", formAction: "/right", formMethod: .post)
        #expect(target.url(of: form, pressed: button)?.text == "https://idp.example/right")
        #expect(target.method(of: form, pressed: button) == .post)
        let plain = HTMLField(kind: .submit, name: "go")
        #expect(target.url(of: form, pressed: plain)?.text == "https://idp.example/login/wrong")
        #expect(target.method(of: form, pressed: plain) == .get)
    }

    @Test func anActionThatIsNoURLGoesNowhere() throws {
        let target = try #require(FormTarget(pageURL: Self.page, baseHref: nil))
        #expect(target.url(of: HTMLForm(action: "https://[::1/x", method: .post)) == nil)
    }

    @Test func theParserReadsFormactionFormmethodAndBase() {
        let html = """
            <html><head><template><base href="/nope/"></template><base target="_top"><base href="/sub/"><base href="/late/"></head>
            <form method="get" action="a"><input name="u"><input type="submit" formaction="b" formmethod="POST">
            <button formaction="c" formmethod="dialog">x</button><button type="button" formaction="d">y</button></form>
            """
        #expect(DocumentBase.href(in: html) == "/sub/")
        let fields = HTMLFormParser.forms(in: html)[0].fields
        #expect(fields.map(\.formAction) == [nil, "b", "c", nil])
        #expect(fields.map(\.formMethod) == [nil, .post, .get, nil])
    }
}
