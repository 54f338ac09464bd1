import Testing
@testable import Walk

/// "login rejected: …" takes the text a person reads: live regions first,
/// then error-like class names, never a hidden element.
@Suite struct LoginErrorTextTests {
    struct Page: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let expected: String?
        var testDescription: String { name }
    }

    static let pages: [Page] = [
        Page(name: "role=alert beats an earlier error class",
             html: #"<div class="error-summary">Fix the fields below</div><div role="alert">Wrong password</div>"#,
             expected: "Wrong password"),
        Page(name: "aria-live counts as a live region",
             html: #"<span class="alert">Generic</span><span id="input-error" class="pf-c-form__helper-text" aria-live="polite">Invalid username or password.</span>"#,
             expected: "Invalid username or password."),
        Page(name: "aria-live=off is no live region",
             html: #"<p aria-live="off">Clock</p><p class="login_error">Bad login</p>"#,
             expected: "Bad login"),
        Page(name: "a banner hidden by a stylesheet class loses to role=alert",
             html: #"<div class="alert alert-danger d-none">Your session expired</div><div role="alert" class="flash">Invalid credentials</div>"#,
             expected: "Invalid credentials"),
        Page(name: "hidden attribute, aria-hidden and inline styles hide, with their children",
             html: #"""
             <div role="alert" hidden>one</div><div role="alert" aria-hidden="true">two</div>
             <div role="alert" style="DISPLAY : none">three</div><div style="visibility:hidden"><p role="alert">four</p></div>
             <div class="error">five</div>
             """#,
             expected: "five"),
        Page(name: "template and noscript are never read",
             html: #"<template><div role="alert">tpl</div></template><noscript><div class="alert">Enable JavaScript</div></noscript><p class="errornote">Please enter a correct username</p>"#,
             expected: "Please enter a correct username"),
        Page(name: "a hidden child of the message is skipped",
             html: #"<div role="alert">Wrong <span hidden>debug: x=1 </span>password</div>"#,
             expected: "Wrong password"),
        Page(name: "entities decoded, numeric and named",
             html: #"<div class="alert-danger">That&#39;s not right &ndash; can&rsquo;t sign in</div>"#,
             expected: "That's not right – can’t sign in"),
        Page(name: "line breaks of every kind become one space",
             html: "<div role=alert>\n Account\u{2028}locked\r\n\t<br>for 5&nbsp;&nbsp;minutes </div>",
             expected: "Account locked for 5 minutes"),
        Page(name: "class tokens containing a mark: login_error, invalid-feedback, feedback",
             html: #"<p class="login_error">No such user</p>"#, expected: "No such user"),
        Page(name: "the class mark must be in a token, not elsewhere in the tag",
             html: #"<div data-kind="error">not this</div><div class="text-muted">nor this</div>"#, expected: nil),
        Page(name: "an empty live region is skipped",
             html: #"<div role="alert"></div><div class="invalid-feedback">Required</div>"#, expected: "Required"),
        Page(name: "nested live regions give the outer text",
             html: #"<div role="alert"><span aria-live="assertive">Bad</span> password</div>"#, expected: "Bad password"),
        Page(name: "textarea and title content are not the message",
             html: #"<div class="error"><title>t</title><textarea>typed</textarea>Oops</div>"#, expected: "Oops"),
        Page(name: "a field's group marked as in error gives the message inside it, not its label",
             html: #"<div class="input-wrapper ulp-error"><label for="password">Password</label><input name="password" type="password"><span id="error-element-password" class="ulp-input-error-message">Wrong username or password</span></div>"#,
             expected: "Wrong username or password"),
        Page(name: "an alert holding its close button is still the message",
             html: #"<div class="alert alert-danger">Wrong password <button type="button" class="close">x</button></div>"#, expected: "Wrong password x"),
        Page(name: "an error id is the last resort",
             html: #"<span id="kc-error-message">Account is disabled</span>"#, expected: "Account is disabled"),
    ]

    @Test(arguments: pages)
    func readsTheVisibleMessage(_ page: Page) {
        #expect(LoginErrorText.find(in: page.html) == page.expected)
    }

    @Test func deepNestingStaysBounded() {
        let html = String(repeating: #"<div role="alert">"#, count: 50_000) + "deep" + String(repeating: "</div>", count: 50_000)
        #expect(LoginErrorText.find(in: html) == "deep")
    }

    // MARK: - Standing banners

    static let banner = #"<p class="hidden alert alert-warning">Served over an unsecured HTTP connection.</p>"#
    static let maintenance = #"<div role="alert">Maintenance on Sunday.</div>"#

    /// The page as fetched before the credentials, then the page after.
    @Test(arguments: [
        ("a banner first in order", banner, banner + #"<p class="login_error">Invalid username or password</p>"#,
         "Invalid username or password"),
        ("a standing live region beats no new class", maintenance, maintenance + #"<div class="form-error">Wrong password.</div>"#,
         "Wrong password."),
        ("an id is new, the live region is not", maintenance, maintenance + #"<span id="kc-error-message">Account is disabled</span>"#,
         "Account is disabled"),
        ("nothing new: the usual rules", banner + #"<div class="error">Wrong password.</div>"#,
         banner + #"<div class="error">Wrong password.</div>"#, "Served over an unsecured HTTP connection."),
        ("the same message on both pages is still reported", #"<div role="alert">Wrong password.</div>"#,
         #"<div role="alert">Wrong password.</div>"#, "Wrong password."),
        ("a banner whose text changed is new", #"<div role="alert">Two attempts left.</div>"#,
         #"<div role="alert">One attempt left.</div><p class="error">Wrong password.</p>"#, "One attempt left."),
        ("an empty placeholder filled after the error", #"<div role="alert"></div>"# + banner,
         #"<div role="alert">Wrong password.</div>"# + banner, "Wrong password."),
    ])
    func prefersTheAlertThatIsNew(_ what: String, before: String, after: String, expected: String) {
        #expect(LoginErrorText.find(in: after, standing: LoginErrorText.texts(in: before)) == expected, "\(what)")
    }

    @Test func textsAreEveryVisibleCandidate() {
        let html = Self.banner + Self.maintenance + #"<div class="error" hidden>Old</div><span id="x-error">Id text</span><p>plain</p>"#
        #expect(LoginErrorText.texts(in: html) == ["Served over an unsecured HTTP connection.", "Maintenance on Sunday.", "Id text"])
    }

    @Test func standingTextsAreBounded() {
        let html = (0..<1_000).map { #"<div class="alert">Banner \#($0)</div>"# }.joined()
        #expect(LoginErrorText.texts(in: html).count == LoginErrorText.maxStanding)
    }
}
