@testable import Core
@testable import HTTP
@testable import Walk

/// Keycloak's pages in the shapes its templates give them (the built-in
/// themes' forms and ids, Keycloakify's declaration), reduced to what the
/// driver reads, for scripted walks (KeycloakDriverTests.swift).
enum KeycloakPages {
    static let realm = "https://kc.example/realms/demo"
    static let authorize = realm + "/protocol/openid-connect/auth?client_id=app&state=s1"
    static func action(_ code: String, execution: String = "e1") -> String {
        realm + "/login-actions/authenticate?session_code=\(code)&amp;execution=\(execution)&amp;client_id=app&amp;tab_id=t1"
    }
    static func actionURL(_ code: String, execution: String = "e1") -> String {
        action(code, execution: execution).replacingAmpersands
    }
    static let redirect = "http://127.0.0.1:8765/cb"
    static let answer = redirect + "?state=s1&code=c0de"

    static func html(_ body: String, status: Int = 200, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/html;charset=utf-8")] + headers,
                     body: Array("<!DOCTYPE html><html><body><div id=\"kc-header\">demo</div>\(body)</body></html>".utf8))
    }

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: [HTTPHeader("Location", location)])
    }

    static func login(_ code: String, error: String? = nil) -> HTTPResponse {
        let message = error.map { #"<span id="input-error" class="pf-c-form__helper-text pf-m-error kc-feedback-text" aria-live="polite">\#($0)</span>"# } ?? ""
        return html(#"""
        <h1 id="kc-page-title">Sign in to your account</h1>
        <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="\#(action(code))" method="post">
        <input id="username" name="username" type="text" autocomplete="username">\#(message)
        <input id="password" name="password" type="password" autocomplete="current-password">
        <input type="hidden" id="id-hidden-input" name="credentialId"/>
        <input name="login" id="kc-login" type="submit" value="Sign In"/></form>
        """#)
    }

    /// login-otp.ftl: v1 radios, or v2 tiles setting a hidden field.
    static func otp(_ code: String, devices: [String], selected: String, v2: Bool, error: String? = nil) -> HTTPResponse {
        let choice: String
        if v2 {
            choice = #"<input id="selectedCredentialId" type="hidden" name="selectedCredentialId" value="\#(selected)">"#
                + devices.enumerated().map { #"<div id="kc-otp-credential-\#($0.offset)" class="pf-v5-c-tile" onclick="toggleOTP(\#($0.offset), '\#($0.element)')"><span class="pf-v5-c-tile__title">Device \#($0.offset)</span></div>"# }.joined()
        } else {
            choice = devices.enumerated().map { #"<input id="kc-otp-credential-\#($0.offset)" type="radio" name="selectedCredentialId" value="\#($0.element)"\#($0.element == selected ? " checked" : "")><label for="kc-otp-credential-\#($0.offset)">Device \#($0.offset)</label>"# }.joined()
        }
        let message = error.map { #"<span id="input-error-otp-code" class="kc-feedback-text" aria-live="polite">\#($0)</span>"# } ?? ""
        return html(#"""
        <form id="kc-otp-login-form" action="\#(action(code, execution: "otp"))" method="post">\#(choice)
        <input id="otp" name="otp" autocomplete="off" type="text">\#(message)
        <input name="login" id="kc-login" type="submit" value="Sign In"/></form>
        """#)
    }

    /// A Keycloakify page: the declaration, no form.
    static func keycloakify(_ pageID: String, _ members: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array(#"""
        <!doctype html><html><head><script>
        const kcContext = {
            "url": { "loginAction": "\#(actionURL("k1", execution: "e9"))", "oauthAction": "\#(realm)/login-actions/consent?client_id=app&tab_id=t1", },
            "realm": { "name": "demo", },
            \#(members)
            "messagesPerField": { "get": function (fieldName) { return ''; }, },
        };
        kcContext.pageId = "\#(pageID)";
        window.kcContext = kcContext;
        </script><script type="module" src="/resources/x/login/app/dist/assets/index.js"></script></head><body><div id="root"></div></body></html>
        """#.utf8))
    }

    static func requiredAction(_ execution: String, form: String) -> (url: String, page: HTTPResponse) {
        (realm + "/login-actions/required-action?execution=\(execution)&client_id=app&tab_id=t1",
         html(#"<h1 id="kc-page-title">Update</h1><form id="\#(form)" action="\#(realm)/login-actions/required-action?session_code=r1&amp;execution=\#(execution)" method="post"><input name="x" type="text"><input type="submit" value="Submit"></form>"#))
    }
}

extension String {
    var replacingAmpersands: String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: "&amp;") {
            out += rest[..<range.lowerBound] + "&"
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
