import Testing
@testable import Core
@testable import HTTP
@testable import Walk

struct MetaRefreshTests {
    @Test(arguments: [
        ("0; url=next", "next"),
        ("0;URL=next?a=1", "next?a=1"),
        ("5 ; Url = 'https://idp.example/x'", "https://idp.example/x"),
        ("0, /continue", "/continue"),
        ("0; url=\"q.html\" trailing", "q.html"),
        ("  2.5;url=next", "next"),
        ("0;", nil),
        ("30", nil),
        ("url=next", nil),
        ("", nil),
    ] as [(String, String?)])
    func content(_ content: String, target: String?) {
        #expect(MetaRefresh.target(ofContent: content) == target)
    }

    @Test(arguments: [
        (#"<head><META HTTP-EQUIV='Refresh' CONTENT='0; URL=continue?txn=1&amp;step=1'></head>"#, "continue?txn=1&step=1"),
        (#"<meta http-equiv=refresh content="0;url=/a"><meta http-equiv="refresh" content="0;url=/b">"#, "/a"),
        (#"<meta name="viewport" content="0;url=/nope"><p>no refresh</p>"#, nil),
        (#"<!-- <meta http-equiv="refresh" content="0;url=/commented"> --><p>x</p>"#, nil),
        (#"<script>document.write('<meta http-equiv="refresh" content="0;url=/js">')</script>"#, nil),
    ] as [(String, String?)])
    func page(_ html: String, target: String?) {
        #expect(MetaRefresh.target(in: html) == target)
    }
}
