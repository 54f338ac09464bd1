import Foundation
import Testing
import TestSupport
@testable import Core
@testable import HTTP
@testable import Walk

private extension HTMLField {
    static func hidden(_ name: String, _ value: String = "") -> HTMLField { HTMLField(kind: .hidden, name: name, value: value) }
    static func text(_ name: String, _ value: String = "") -> HTMLField { HTMLField(kind: .text, name: name, value: value) }
    static func password(_ name: String) -> HTMLField { HTMLField(kind: .password, name: name) }
    static func checkbox(_ name: String, _ value: String = "on", checked: Bool = false) -> HTMLField {
        HTMLField(kind: .checkbox, name: name, value: value, checked: checked)
    }
    static func radio(_ name: String, _ value: String, checked: Bool) -> HTMLField {
        HTMLField(kind: .radio, name: name, value: value, checked: checked)
    }
    /// `<input type=submit>`: its label is its value.
    static func submitInput(_ name: String = "", _ value: String = "") -> HTMLField {
        HTMLField(kind: .submit, name: name, value: value, label: value)
    }
    /// `<button>` of some type, with its content as label.
    static func button(_ kind: Kind = .submit, _ name: String = "", _ value: String = "", label: String) -> HTMLField {
        HTMLField(kind: kind, name: name, value: value, label: label)
    }
    static func select(_ name: String, _ value: String, checked: Bool = true, disabled: Bool = false) -> HTMLField {
        HTMLField(kind: .select, name: name, value: value, checked: checked, disabled: disabled)
    }
}

struct HTMLFormParserTests {
    /// One page and the forms a browser without scripting would find on it.
    struct FormPage: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let forms: [HTMLForm]
        var testDescription: String { name }
    }

    static let formPages: [FormPage] = [
        FormPage(
            name: "Keycloak login",
            html: """
            <!DOCTYPE html>
            <html class="login-pf"><head><meta charset="utf-8"><title>Sign in to demo</title>
            <script src="/resources/js/keycloak.js" type="text/javascript"></script>
            <script type="module">
              import { checkCookiesAndSetTimer } from "/resources/js/authChecker.js";
              checkCookiesAndSetTimer("/realms/demo/login-actions/restart?client_id=app&tab_id=x");
            </script></head>
            <body><div id="kc-form-wrapper">
            <form id="kc-form-login" onsubmit="login.disabled = true; return true;" action="http://localhost:8080/realms/demo/login-actions/authenticate?session_code=abc&amp;execution=6c1&amp;client_id=app&amp;tab_id=Xy_1" method="post">
              <div class="form-group">
                <label for="username" class="pf-c-form__label">Username or email</label>
                <input tabindex="1" id="username" class="pf-c-form-control" name="username" value="" type="text" autofocus autocomplete="off" aria-invalid=""/>
              </div>
              <div class="form-group">
                <label for="password" class="pf-c-form__label">Password</label>
                <input tabindex="2" id="password" class="pf-c-form-control" name="password" type="password" autocomplete="off" aria-invalid=""/>
              </div>
              <div id="kc-form-options"><div class="checkbox"><label><input tabindex="3" id="rememberMe" name="rememberMe" type="checkbox"> Remember me</label></div></div>
              <div id="kc-form-buttons" class="form-group">
                <input type="hidden" id="id-hidden-input" name="credentialId" />
                <input tabindex="4" class="pf-c-button pf-m-primary" name="login" id="kc-login" type="submit" value="Sign In"/>
              </div>
            </form></div></body></html>
            """,
            forms: [HTMLForm(
                action: "http://localhost:8080/realms/demo/login-actions/authenticate?session_code=abc&execution=6c1&client_id=app&tab_id=Xy_1",
                method: "POST", id: "kc-form-login",
                fields: [.text("username"), .password("password"), .checkbox("rememberMe"), .hidden("credentialId"), .submitInput("login", "Sign In")]
            )]
        ),
        FormPage(
            name: "Keycloak consent with Yes and No",
            html: """
            <form class="form-actions" action="/realms/demo/login-actions/consent?session_code=s&amp;client_id=app" method="POST">
              <input type="hidden" name="code" value="eyJhbGciOi.J9.x-y_z">
              <div class="pf-c-form__group"><div id="kc-form-buttons">
                <input class="pf-c-button pf-m-primary" name="accept" id="kc-login" type="submit" value="Yes"/>
                <input class="pf-c-button pf-m-secondary" name="cancel" id="kc-cancel" type="submit" value="No"/>
              </div></div>
            </form>
            """,
            forms: [HTMLForm(
                action: "/realms/demo/login-actions/consent?session_code=s&client_id=app", method: "POST",
                fields: [.hidden("code", "eyJhbGciOi.J9.x-y_z"), .submitInput("accept", "Yes"), .submitInput("cancel", "No")]
            )]
        ),
        FormPage(
            name: "django admin login with csrfmiddlewaretoken",
            html: """
            <form action="/admin/login/?next=/admin/" method="post" id="login-form"><input type="hidden" name="csrfmiddlewaretoken" value="Xq3vR0aZ9kLmN8pQ2sT5uV7wY1bC4dE6fG8hJ0kL2mN4pQ6rS8tU0vW2xY4zA6bC">
              <div class="form-row">
                <label class="required" for="id_username">Username:</label> <input type="text" name="username" autofocus autocapitalize="none" autocomplete="username" maxlength="150" required id="id_username">
              </div>
              <div class="form-row">
                <label class="required" for="id_password">Password:</label> <input type="password" name="password" autocomplete="current-password" required id="id_password">
                <input type="hidden" name="next" value="/admin/">
              </div>
              <div class="submit-row"><input type="submit" value="Log in"></div>
            </form>
            """,
            forms: [HTMLForm(
                action: "/admin/login/?next=/admin/", method: "POST", id: "login-form",
                fields: [
                    .hidden("csrfmiddlewaretoken", "Xq3vR0aZ9kLmN8pQ2sT5uV7wY1bC4dE6fG8hJ0kL2mN4pQ6rS8tU0vW2xY4zA6bC"),
                    .text("username"), .password("password"), .hidden("next", "/admin/"), .submitInput("", "Log in"),
                ]
            )]
        ),
        FormPage(
            name: "django-oauth-toolkit login template (form.as_p)",
            html: """
            <form method="post" action="/accounts/login/">
            <input type="hidden" name="csrfmiddlewaretoken" value="abc">
            <p><label for="id_username">Username:</label> <input type="text" name="username" autofocus maxlength="150" required id="id_username"></p>
            <p><label for="id_password">Password:</label> <input type="password" name="password" required id="id_password"></p>
            <input type="hidden" name="next" value="/o/authorize/?response_type=code&amp;client_id=abc&amp;redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&amp;state=xyz">
            <button type="submit">Log in</button>
            </form>
            """,
            forms: [HTMLForm(
                action: "/accounts/login/", method: "POST",
                fields: [
                    .hidden("csrfmiddlewaretoken", "abc"), .text("username"), .password("password"),
                    .hidden("next", "/o/authorize/?response_type=code&client_id=abc&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&state=xyz"),
                    .button(label: "Log in"),
                ]
            )]
        ),
        FormPage(
            name: "django-oauth-toolkit consent with nameless Cancel",
            html: """
            <div class="block-center">
                <form id="authorizationForm" method="post">
                    <h3 class="block-center-heading">Authorize demo?</h3>
                    <input type='hidden' name='csrfmiddlewaretoken' value='tok' />
                    <input type="hidden" name="redirect_uri" id="id_redirect_uri" value="http://127.0.0.1:9/cb">
                    <input type="hidden" name="scope" id="id_scope" value="openid read">
                    <input type="hidden" name="nonce" id="id_nonce">
                    <input type="hidden" name="client_id" value="abc" id="id_client_id">
                    <input type="hidden" name="state" value="s1" id="id_state">
                    <input type="hidden" name="response_type" value="code" id="id_response_type">
                    <input type="hidden" name="code_challenge" value="E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" id="id_code_challenge">
                    <input type="hidden" name="code_challenge_method" value="S256" id="id_code_challenge_method">
                    <input type="hidden" name="claims" id="id_claims">
                    <p>Application requires the following permissions</p>
                    <ul><li>OpenID Connect scope</li><li>Reading scope</li></ul>
                    <div class="control-group"><div class="controls">
                        <input type="submit" class="btn btn-large" value="Cancel"/>
                        <input type="submit" class="btn btn-large btn-primary" name="allow" value="Authorize"/>
                    </div></div>
                </form>
            </div>
            """,
            forms: [HTMLForm(
                action: nil, method: "POST", id: "authorizationForm",
                fields: [
                    .hidden("csrfmiddlewaretoken", "tok"), .hidden("redirect_uri", "http://127.0.0.1:9/cb"), .hidden("scope", "openid read"),
                    .hidden("nonce"), .hidden("client_id", "abc"), .hidden("state", "s1"), .hidden("response_type", "code"),
                    .hidden("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), .hidden("code_challenge_method", "S256"),
                    .hidden("claims"), .submitInput("", "Cancel"), .submitInput("allow", "Authorize"),
                ]
            )]
        ),
        FormPage(
            name: "Okta-ish classic sign-in",
            html: """
            <form method="POST" action="/login/default" id="form19" class="o-form" data-se="o-form">
            <input type="hidden" name="fromURI" value="/oauth2/v1/authorize/redirect?okta_key=AbC-123_xyz">
            <div class="o-form-input"><span data-se="o-form-input-username"><input type="text" placeholder="" name="username" id="okta-signin-username" value="" aria-label="" autocomplete="username" aria-required="true" required></span></div>
            <span data-se="o-form-input-password"><input type="password" placeholder="" name="password" id="okta-signin-password" value="" autocomplete="current-password"></span>
            <span data-se="o-form-input-remember"><input type="checkbox" name="remember" id="input41"><label for="input41">Remember me</label></span>
            <div class="o-form-button-bar"><input class="button button-primary" type="submit" value="Sign In" id="okta-signin-submit" data-type="save"></div>
            </form>
            """,
            forms: [HTMLForm(
                action: "/login/default", method: "POST", id: "form19",
                fields: [
                    .hidden("fromURI", "/oauth2/v1/authorize/redirect?okta_key=AbC-123_xyz"), .text("username"), .password("password"),
                    .checkbox("remember"), .submitInput("", "Sign In"),
                ]
            )]
        ),
        FormPage(
            name: "Auth0-ish universal login with a named button",
            html: """
            <form method="POST" class="c0ad6e7f3 c7c7b1d5e" data-form-primary="true">
              <input type="hidden" name="state" value="hKFo2SBmUmJ1Zkl6">
              <div class="input-wrapper"><label for="username">Email address</label>
              <input class="input" inputMode="email" name="username" id="username" type="text" value="" required autoComplete="email" autoFocus></div>
              <input class="input" name="password" id="password" type="password" required autoComplete="current-password">
              <input type="hidden" id="js-available" name="js-available" value="false"/>
              <input type="hidden" id="webauthn-available" name="webauthn-available" value="false"/>
              <div class="cdc5d2c1e"><button type="submit" name="action" value="default" class="c89f1057d" data-action-button-primary="true">Continue</button></div>
            </form>
            """,
            forms: [HTMLForm(
                action: nil, method: "POST",
                fields: [
                    .hidden("state", "hKFo2SBmUmJ1Zkl6"), .text("username"), .password("password"), .hidden("js-available", "false"),
                    .hidden("webauthn-available", "false"), .button(.submit, "action", "default", label: "Continue"),
                ]
            )]
        ),
        FormPage(
            name: "Spring Security default login page",
            html: """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Please sign in</title>
            <link href="https://maxcdn.bootstrapcdn.com/bootstrap/4.0.0-beta/css/bootstrap.min.css" rel="stylesheet" crossorigin="anonymous"/>
            </head><body><div class="container">
              <form class="form-signin" method="post" action="/login">
                <h2 class="form-signin-heading">Please sign in</h2>
                <p><label for="username" class="sr-only">Username</label>
                  <input type="text" id="username" name="username" class="form-control" placeholder="Username" required autofocus></p>
                <p><label for="password" class="sr-only">Password</label>
                  <input type="password" id="password" name="password" class="form-control" placeholder="Password" required></p>
            <input name="_csrf" type="hidden" value="0b6a2a1c-4c0e-4f7b-9d2b-7d0c6b4a8e11" />
                <button class="btn btn-lg btn-primary btn-block" type="submit">Sign in</button>
              </form></div></body></html>
            """,
            forms: [HTMLForm(
                action: "/login", method: "POST",
                fields: [.text("username"), .password("password"), .hidden("_csrf", "0b6a2a1c-4c0e-4f7b-9d2b-7d0c6b4a8e11"), .button(label: "Sign in")]
            )]
        ),
        FormPage(
            name: "Spring Authorization Server consent with scope checkboxes",
            html: """
            <form name="consent_form" method="post" action="/oauth2/authorize">
              <input type="hidden" name="client_id" value="messaging-client">
              <input type="hidden" name="state" value="abc">
              <div class="form-group form-check py-1">
                <input class="form-check-input" type="checkbox" name="scope" value="message.read" id="message.read">
                <label class="form-check-label" for="message.read">message.read</label>
              </div>
              <div class="form-group form-check py-1">
                <input class="form-check-input" type="checkbox" name="scope" value="message.write" id="message.write" checked>
              </div>
              <div class="form-group pt-3"><button class="btn btn-primary btn-lg" type="submit" id="submit-consent">
                Submit Consent
              </button></div>
              <div class="form-group"><button class="btn btn-link regular" type="button" id="cancel-consent" onclick="cancelConsent();">Cancel</button></div>
            </form>
            """,
            forms: [HTMLForm(
                action: "/oauth2/authorize", method: "POST", name: "consent_form",
                fields: [
                    .hidden("client_id", "messaging-client"), .hidden("state", "abc"), .checkbox("scope", "message.read"),
                    .checkbox("scope", "message.write", checked: true), .button(label: "Submit Consent"), .button(.button, label: "Cancel"),
                ]
            )]
        ),
        FormPage(
            name: "GitHub-ish consent: two buttons share a name",
            html: """
            <form action="/login/oauth/authorize" accept-charset="UTF-8" method="post"><input type="hidden" name="authenticity_token" value="Zm9v+YmFy/YmF6PT0=" autocomplete="off" />
              <input type="hidden" name="client_id" value="Iv1.abc" autocomplete="off" />
              <button name="authorize" value="0" type="submit" class="btn">Cancel</button>
              <button name="authorize" value="1" type="submit" class="btn btn-primary">Authorize <strong>octocat</strong></button>
            </form>
            """,
            forms: [HTMLForm(
                action: "/login/oauth/authorize", method: "POST",
                fields: [
                    .hidden("authenticity_token", "Zm9v+YmFy/YmF6PT0="), .hidden("client_id", "Iv1.abc"),
                    .button(.submit, "authorize", "0", label: "Cancel"), .button(.submit, "authorize", "1", label: "Authorize octocat"),
                ]
            )]
        ),
        FormPage(
            name: "ADFS-ish form without any submit control",
            html: """
            <form method="post" id="loginForm" autocomplete="off" novalidate="novalidate" onKeyPress="if (event && event.keyCode == 13) Login.submitLoginRequest();" action="/adfs/oauth2/authorize/?client-request-id=6f1&amp;response_type=code&amp;client_id=app" >
              <input id="userNameInput" name="UserName" type="email" value="" tabindex="1" class="text fullWidth" spellcheck="false" placeholder="someone@example.com" autocomplete="off"/>
              <input id="passwordInput" name="Password" type="password" tabindex="2" class="text fullWidth" placeholder="Password" autocomplete="off"/>
              <input id="kmsiInput" type="checkbox" name="Kmsi" value="true" checked="checked" />
              <input id="optionForms" type="hidden" name="AuthMethod" value="FormsAuthentication"/>
              <span id="submitButton" class="submit modifiedSignIn" tabindex="4" role="button" onclick="return Login.submitLoginRequest();">Sign in</span>
            </form>
            """,
            forms: [HTMLForm(
                action: "/adfs/oauth2/authorize/?client-request-id=6f1&response_type=code&client_id=app", method: "POST", id: "loginForm",
                fields: [
                    HTMLField(kind: .email, name: "UserName"), .password("Password"), .checkbox("Kmsi", "true", checked: true),
                    .hidden("AuthMethod", "FormsAuthentication"),
                ]
            )]
        ),
        FormPage(
            name: "SAML POST binding with the button in <noscript>",
            html: """
            <body onload="document.forms[0].submit()">
            <noscript><p><strong>Note:</strong> press the Continue button once to proceed.</p></noscript>
            <form action="https://sp.example.com/acs" method="post">
            <input type="hidden" name="SAMLResponse" value="PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiPg=="/>
            <input type="hidden" name="RelayState" value="token+/=="/>
            <noscript><input type="submit" value="Continue"/></noscript>
            </form>
            """,
            forms: [HTMLForm(
                action: "https://sp.example.com/acs", method: "POST",
                fields: [
                    .hidden("SAMLResponse", "PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiPg=="),
                    .hidden("RelayState", "token+/=="), .submitInput("", "Continue"),
                ]
            )]
        ),
        FormPage(
            name: "OIDC form_post response in upper case",
            html: """
            <HTML><HEAD><TITLE>Submit This Form</TITLE></HEAD><BODY Onload="javascript:document.forms[0].submit()"><FORM METHOD="POST" ACTION="http://127.0.0.1:9/cb"><INPUT TYPE="HIDDEN" NAME="code" VALUE="abc.def.ghi"><INPUT TYPE="HIDDEN" NAME="state" VALUE="xyz"><INPUT TYPE="HIDDEN" NAME="iss" VALUE="http://localhost:8080/realms/demo"><NOSCRIPT><P>JavaScript is disabled. Click Submit to continue.</P><INPUT name="continue" TYPE="SUBMIT" VALUE="Submit" /></NOSCRIPT></FORM></BODY></HTML>
            """,
            forms: [HTMLForm(
                action: "http://127.0.0.1:9/cb", method: "POST",
                fields: [
                    .hidden("code", "abc.def.ghi"), .hidden("state", "xyz"), .hidden("iss", "http://localhost:8080/realms/demo"),
                    .submitInput("continue", "Submit"),
                ]
            )]
        ),
        FormPage(
            name: "attribute quoting: double, single, unquoted, spaces around =",
            html: """
            <form action=/login method=post><input type=hidden name=a value=1><input type='hidden' name='b' value='two "words"'>
            <input type = "hidden" name = "c" value = "x=y"><input type=hidden name=d value=e/f><input type=hidden name=g value=h/>
            <input type="hidden"name="i"value='j'/><input type=hidden name=k value=></form>
            """,
            forms: [HTMLForm(
                action: "/login", method: "POST",
                fields: [
                    .hidden("a", "1"), .hidden("b", "two \"words\""), .hidden("c", "x=y"), .hidden("d", "e/f"), .hidden("g", "h/"),
                    .hidden("i", "j"), .hidden("k", ""),
                ]
            )]
        ),
        FormPage(
            name: "upper- and mixed-case tags and attributes keep value case",
            html: #"<FORM ACTION="/Login" METHOD="Post" Name="LoginForm"><INPUT TYPE="HIDDEN" NAME="Token" VALUE="AbC"><Input Type="Password" Name="PW"><INPUT TYPE=SUBMIT VALUE=GO></FORM>"#,
            forms: [HTMLForm(
                action: "/Login", method: "POST", name: "LoginForm",
                fields: [.hidden("Token", "AbC"), .password("PW"), .submitInput("", "GO")]
            )]
        ),
        FormPage(
            name: "named entities in values",
            html: #"<form><input type="hidden" name="v" value="a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos; &nbsp;f &eacute;&copy;&hellip;&unknown; &amp"></form>"#,
            forms: [HTMLForm(fields: [.hidden("v", "a&b <c> \"d\" 'e' \u{A0}f é©…&unknown; &")])]
        ),
        FormPage(
            name: "entities in the action; legacy &copy= and &lang= stay as they are",
            html: #"<form action="/login?a=1&amp;b=2&copy=3&lang=en&amp;c=&quot;4&quot;" method="POST"></form>"#,
            forms: [HTMLForm(action: "/login?a=1&b=2&copy=3&lang=en&c=\"4\"", method: "POST")]
        ),
        FormPage(
            name: "numeric entities: decimal, hex, no semicolon, invalid, windows-1252",
            html: #"<form><input type="hidden" name="n" value="&#38;&#x26;&#X26;&#65&#x1F600;&#0;&#x110000;&#128;&#xD800;&#;&#x;"></form>"#,
            forms: [HTMLForm(fields: [.hidden("n", "&&&A😀\u{FFFD}\u{FFFD}€\u{FFFD}&#;&#x;")])]
        ),
        FormPage(
            name: "comments, scripts and styles hold fake forms",
            html: """
            <!-- <form action="/fake"><input name="x"></form> -->
            <script>document.write('<form action="/evil"><input name="y"></form>');</script>
            <style>form::before { content: "<form action='/css'>"; }</style>
            <form action="/real" method="post"><!-- <input name="commented"> --><input name="z" value="1"></form>
            <script type="text/javascript">var s = "</scr" + "ipt>"; // </form><form action="/evil2"></script>
            <!--> <form action="/after-abrupt-comment"></form>
            """,
            forms: [
                HTMLForm(action: "/real", method: "POST", fields: [.text("z", "1")]),
                HTMLForm(action: "/after-abrupt-comment"),
            ]
        ),
        FormPage(
            name: "doctype, processing instruction and CDATA are bogus comments",
            html: #"<?xml version="1.0"?><!DOCTYPE html><![CDATA[<form action="/cdata">]]><form action="/ok"></form>"#,
            forms: [HTMLForm(action: "/ok")]
        ),
        FormPage(
            name: "search form then login form",
            html: """
            <header><form action="/search" role="search"><input type="search" name="q" placeholder="Search"><button>Go</button></form></header>
            <main><form action="/session" method="post"><input type="hidden" name="authenticity_token" value="t"><input name="login"><input type="password" name="password"><input type="submit" name="commit" value="Sign in"></form></main>
            """,
            forms: [
                HTMLForm(action: "/search", fields: [HTMLField(kind: .other, name: "q"), .button(label: "Go")]),
                HTMLForm(action: "/session", method: "POST", fields: [
                    .hidden("authenticity_token", "t"), .text("login"), .password("password"), .submitInput("commit", "Sign in"),
                ]),
            ]
        ),
        FormPage(
            name: "form started inside a table cell owns the later cells",
            html: """
            <table><tr><td><form method="post" action="login.php"></td></tr>
            <tr><td>User</td><td><input type="text" name="user"></td></tr>
            <tr><td>Pass</td><td><input type="password" name="pass"></td></tr>
            <tr><td colspan=2><input type="submit" value="Login"></td></tr></table></form>
            """,
            forms: [HTMLForm(action: "login.php", method: "POST", fields: [.text("user"), .password("pass"), .submitInput("", "Login")])]
        ),
        FormPage(
            name: "unclosed form ends at the next form",
            html: #"<form id="a" action="/a"><input name="x"><div><form id="b" action="/b"><input name="y"></form>"#,
            forms: [HTMLForm(action: "/a", id: "a", fields: [.text("x")]), HTMLForm(action: "/b", id: "b", fields: [.text("y")])]
        ),
        FormPage(
            name: "unclosed form runs to the end of the document",
            html: #"<form action="/only" method="post"><input name="q"><p>text"#,
            forms: [HTMLForm(action: "/only", method: "POST", fields: [.text("q")])]
        ),
        FormPage(
            name: "nested form start tag is ignored, as browsers do",
            html: #"<form id="outer" action="/o"><input name="a"><form id="inner" action="/i"><input name="b"></form><input name="c"></form>"#,
            forms: [HTMLForm(action: "/o", id: "outer", fields: [.text("a"), .text("b")])]
        ),
        FormPage(
            name: "select: selected option, first option, empty, multiple, disabled first",
            html: """
            <form><select name="lang"><option value="en">English<option value="de" selected>Deutsch</option><option>Fran&ccedil;ais</select>
            <select name="tz"><option>  UTC
            </option><option>CET</option></select>
            <select name="none"></select>
            <select name="multi" multiple><option value="1" selected>One<option value="2">Two<option value="3" selected>Three</select>
            <select name="dis"><option disabled>Pick one<option value="x">X</select>
            <select name="grp"><optgroup label="A" disabled><option>a1</option></optgroup><optgroup label="B"><option>b1</option></optgroup></select>
            <select name="text"><option selected>  Two   words </option></select></form>
            """,
            forms: [HTMLForm(fields: [
                .select("lang", "de"), .select("tz", "UTC"), .select("none", "", checked: false), .select("multi", "1"), .select("multi", "3"),
                .select("dis", "x"), .select("grp", "b1"), .select("text", "Two words"),
            ])]
        ),
        FormPage(
            name: "textarea content is raw text; one leading newline dropped",
            html: "<form><textarea name=\"note\" rows=3>\n  Line 1 <b>not a tag</b> &amp; more\n</textarea><textarea name=\"empty\"></textarea><TEXTAREA name=\"up\">x</TEXTAREA ></form>",
            forms: [HTMLForm(fields: [
                HTMLField(kind: .textarea, name: "note", value: "  Line 1 <b>not a tag</b> & more\n"),
                HTMLField(kind: .textarea, name: "empty"), HTMLField(kind: .textarea, name: "up", value: "x"),
            ])]
        ),
        FormPage(
            name: "buttons versus inputs",
            html: """
            <form><button>Plain</button><button type="button" name="b1">Show <i class="icon"></i> password</button>
            <button type="reset">Clear</button><button type="SUBMIT" name="go" value="1"><span>Go</span>
            <strong>now</strong></button><input type="button" value="JS only"><input type="reset">
            <button type="bogus" name="odd">Odd</button><button name="icon" aria-label="Next step"><svg><path d="M0"/></svg></button></form>
            """,
            forms: [HTMLForm(fields: [
                .button(label: "Plain"), .button(.button, "b1", label: "Show password"), .button(.reset, label: "Clear"),
                .button(.submit, "go", "1", label: "Go now"), HTMLField(kind: .button, name: "", value: "JS only", label: "JS only"),
                HTMLField(kind: .reset, name: ""), .button(.submit, "odd", label: "Odd"), .button(.submit, "icon", label: "Next step"),
            ])]
        ),
        FormPage(
            name: "image inputs",
            html: #"<form action="/x"><input type="image" name="go" src="/go.png" alt="Go"><input type="IMAGE" src="/b.png"></form>"#,
            forms: [HTMLForm(action: "/x", fields: [
                HTMLField(kind: .image, name: "go", label: "Go"), HTMLField(kind: .image, name: ""),
            ])]
        ),
        FormPage(
            name: "disabled fields and disabled fieldsets",
            html: """
            <form><input name="a" disabled><input name="b" value="1" disabled="disabled"><fieldset disabled><input name="c">
            <select name="d"><option>1</select></fieldset><fieldset><input name="e"></fieldset><input name="f"></form>
            """,
            forms: [HTMLForm(fields: [
                HTMLField(kind: .text, name: "a", disabled: true), HTMLField(kind: .text, name: "b", value: "1", disabled: true),
                HTMLField(kind: .text, name: "c", disabled: true), .select("d", "1", disabled: true), .text("e"), .text("f"),
            ])]
        ),
        FormPage(
            name: "controls outside the form join it through form=id, in document order",
            html: """
            <input type="hidden" name="before" value="1" form="login">
            <form id="login" action="/login" method="post"><input name="user"></form>
            <input type="password" name="pass" form="login">
            <button type="submit" form="login" name="go">Go</button>
            <input name="orphan"><input name="wrong" form="nope">
            <form id="other"><input name="moved" form="login"></form>
            """,
            forms: [
                HTMLForm(action: "/login", method: "POST", id: "login", fields: [
                    .hidden("before", "1"), .text("user"), .password("pass"), .button(.submit, "go", label: "Go"), .text("moved"),
                ]),
                HTMLForm(id: "other"),
            ]
        ),
        FormPage(
            name: "method: get, dialog, padded post, missing",
            html: #"<form method="get"></form><form method="dialog"></form><form method=" post "></form><form></form>"#,
            forms: [HTMLForm(), HTMLForm(), HTMLForm(method: "POST"), HTMLForm()]
        ),
        FormPage(
            name: "checkboxes and radios: default on, last checked radio wins",
            html: """
            <form><input type=checkbox name=remember value=yes checked><input type=radio name=r value=a checked>
            <input type=radio name=r value=b checked><input type=checkbox name=c><input type=radio name=s></form>
            """,
            forms: [HTMLForm(fields: [
                .checkbox("remember", "yes", checked: true), .radio("r", "a", checked: false), .radio("r", "b", checked: true),
                .checkbox("c"), .radio("s", "on", checked: false),
            ])]
        ),
        FormPage(
            name: "input types: known, other, unknown, padded",
            html: #"<form><input type="email" name="e"><input type="tel" name="t"><input type="number" name="n"><input type="file" name="f"><input type="weird" name="w"><input name="no-type"><input type=" Password " name="p"><input type="select" name="s"></form>"#,
            forms: [HTMLForm(fields: [
                HTMLField(kind: .email, name: "e"), HTMLField(kind: .other, name: "t"), HTMLField(kind: .other, name: "n"),
                HTMLField(kind: .file, name: "f"), .text("w"), .text("no-type"), .password("p"), .text("s"),
            ])]
        ),
        FormPage(
            name: "repeated attributes: the first wins",
            html: #"<form action="/first" action="/second"><input name="first" name="second" value="1" value="2" type="hidden" type="text"></form>"#,
            forms: [HTMLForm(action: "/first", fields: [.hidden("first", "1")])]
        ),
        FormPage(
            name: "controls outside any form are dropped",
            html: #"<input name="lonely"><button>Click</button><select name="s"><option>1</select><p>No form here</p>"#,
            forms: []
        ),
        FormPage(name: "empty page", html: "", forms: []),
        FormPage(
            name: "truncated inside an attribute value: the tag is dropped",
            html: #"<form action="/a" method="post"><input name="ok"><input name="x" value="unterminated"#,
            forms: [HTMLForm(action: "/a", method: "POST", fields: [.text("ok")])]
        ),
        FormPage(
            name: "truncated inside a tag",
            html: #"<form action="/a"><input name="x" <inp"#,
            forms: [HTMLForm(action: "/a")]
        ),
        FormPage(
            name: "garbage around a form",
            html: "<<>><</ > <3 a < b &&&#; </> <!x> <form action='/g'>< input name=no><input name=yes>&#x",
            forms: [HTMLForm(action: "/g", fields: [.text("yes")])]
        ),
        FormPage(
            name: "controls inside <template> belong to no form",
            html: #"<form action="/t"><input name="a"><template><input name="inTemplate"><form action="/tf"></form></template><input name="b"></form>"#,
            forms: [HTMLForm(action: "/t", fields: [.text("a"), .text("b")])]
        ),
        FormPage(
            name: "a select left open is closed by an input",
            html: #"<form><select name="s"><option value="1">One<input name="after"></form>"#,
            forms: [HTMLForm(fields: [.select("s", "1"), .text("after")])]
        ),
        FormPage(
            name: "unclosed button takes the text up to the next button",
            html: #"<form><button name="a">First<button name="b">Second</form>"#,
            forms: [HTMLForm(fields: [.button(.submit, "a", label: "First"), .button(.submit, "b", label: "Second")])]
        ),
    ]

    @Test(arguments: HTMLFormParserTests.formPages)
    func extractsForms(_ page: FormPage) {
        #expect(HTMLFormParser.forms(in: page.html) == page.forms)
    }

    // MARK: - Error text and title

    struct TextPage: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let expected: String?
        var testDescription: String { name }
    }

    static let errorPages: [TextPage] = [
        TextPage(
            name: "django admin errornote",
            html: #"<div id="content"><p class="errornote">Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive.</p><form></form></div>"#,
            expected: "Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive."
        ),
        TextPage(
            name: "django form.as_p errorlist",
            html: #"<form method="post"><ul class="errorlist nonfield"><li>Please enter a correct username and password. Note that both fields may be case-sensitive.</li></ul></form>"#,
            expected: "Please enter a correct username and password. Note that both fields may be case-sensitive."
        ),
        TextPage(
            name: "Keycloak alert with nested spans",
            html: """
            <div class="alert-error pf-c-alert pf-m-inline pf-m-danger">
                <div class="pf-c-alert__icon"><span class="fa fa-fw fa-exclamation-circle"></span></div>
                <span class="pf-c-alert__title kc-feedback-text">Invalid username or password.</span>
            </div>
            """,
            expected: "Invalid username or password."
        ),
        TextPage(
            name: "Spring Security alert-danger with role=alert",
            html: #"<div class="alert alert-danger" role="alert">Bad credentials</div>"#,
            expected: "Bad credentials"
        ),
        TextPage(
            name: "role=alert alone, entities decoded, whitespace (no-break spaces too) collapsed",
            html: "<p>ok</p><div role=\"ALERT\">\n  Wrong&nbsp;password &amp;\n\t try   again  </div>",
            expected: "Wrong password & try again"
        ),
        TextPage(
            name: "id carries the mark",
            html: #"<span id="kc-error-message"><span>Account is disabled</span></span>"#,
            expected: "Account is disabled"
        ),
        TextPage(
            name: "empty and hidden alerts are skipped",
            html: #"<div class="alert"></div><div class="error" hidden>Enable cookies</div><div class="error" style="display: none">Hidden</div><input class="is-invalid" name="u"><p class="invalid-feedback">Required field</p>"#,
            expected: "Required field"
        ),
        TextPage(
            name: "nested elements of the same name",
            html: #"<div class="login-error"><div>Too many</div><div>attempts</div></div><div>outside</div>"#,
            expected: "Too many attempts"
        ),
        TextPage(
            name: "an unclosed paragraph ends at the next paragraph",
            html: #"<p class="error">Locked<p>Other text"#,
            expected: "Locked"
        ),
        TextPage(
            name: "script inside the alert is not text",
            html: #"<div class="alert"><script>var x = "<b>no</b>";</script>Session expired</div>"#,
            expected: "Session expired"
        ),
        TextPage(name: "no error", html: #"<html><body><form><input name="a"></form></body></html>"#, expected: nil),
        TextPage(name: "error at the end of input", html: #"<div class="error">Cut off"#, expected: "Cut off"),
        TextPage(
            name: "long messages are cut at 200 characters",
            html: #"<div class="error">"# + String(repeating: "word ", count: 100) + "</div>",
            expected: String(String(repeating: "word ", count: 40).dropLast())
        ),
    ]

    @Test(arguments: HTMLFormParserTests.errorPages)
    func findsErrorText(_ page: TextPage) {
        #expect(LoginErrorText.find(in: page.html) == page.expected)
    }

    static let titlePages: [TextPage] = [
        TextPage(name: "simple", html: "<html><head><title>Sign in to demo</title></head></html>", expected: "Sign in to demo"),
        TextPage(name: "upper case, entities, whitespace", html: "<TITLE>\n  Log in &middot; Example &amp; Co\n</TITLE>", expected: "Log in · Example & Co"),
        TextPage(name: "tags inside title are text", html: "<title>a <b>b</b></title>", expected: "a <b>b</b>"),
        TextPage(name: "no title", html: "<h1>Hello</h1>", expected: nil),
        TextPage(name: "empty title", html: "<title> </title>", expected: nil),
        TextPage(name: "unclosed title", html: "<title>Truncated", expected: "Truncated"),
        TextPage(name: "title in a comment does not count", html: "<!-- <title>no</title> --><title>yes</title>", expected: "yes"),
    ]

    @Test(arguments: HTMLFormParserTests.titlePages)
    func findsTitle(_ page: TextPage) {
        #expect(HTMLFormParser.title(in: page.html) == page.expected)
    }

    // MARK: - Hostile input

    /// Inputs shaped to make a naive parser trap or go quadratic.
    static let hostileInputs: [String] = [
        "<", "<!", "<!-", "<!--", "<!---", "</", "</a", "<a", "<a ", "<a b", "<a b=", "<a b='", "&", "&#", "&#x", "&#99999999999999999999;",
        "<form", "<form action=", "<form><select><option", "<form><textarea>", "<form><button>", "<title>", "<script>",
        "<form><input form=>", "<form id=''><input form=''>", "\u{0}<\u{0}form\u{0}>", "<é><form action=é>é</é>",
        String(repeating: "<", count: 10_000), String(repeating: "<!--", count: 10_000), String(repeating: "&amp", count: 10_000),
        String(repeating: "</form>", count: 1_000) + String(repeating: "<form>", count: 1_000),
        "<form>" + String(repeating: "<select>", count: 1_000), "<form><select>" + String(repeating: "<option selected>x", count: 20_000),
        "<input " + String(repeating: "a=1 ", count: 10_000) + ">",
    ]

    @Test(arguments: HTMLFormParserTests.hostileInputs)
    func hostileInputDoesNotTrap(_ html: String) {
        _ = HTMLFormParser.forms(in: html)
        _ = LoginErrorText.find(in: html)
        _ = HTMLFormParser.title(in: html)
    }

    /// Each shape repeated to 24 KB and to 96 KB: four times the input
    /// takes about four times the CPU time, never sixteen (TestSupport/Growth.swift).
    @Test(arguments: [
        "<", "<a ", "&", "&#x1", "<!-- ", "<form>", "<input name=a>", "<form><input>", "<button>x", "<div class=error>",
        "<select><option>", "<input form=f>", "<fieldset>", "</", "<script>", "<a b=\"", "<p>hello &amp; world</p>",
    ])
    func largeInputStaysLinear(_ unit: String) {
        let ratio = Growth.ratio(size: 24_000) { size in
            let html = String(repeating: unit, count: size / unit.utf8.count)
            let forms = HTMLFormParser.forms(in: html)
            #expect(forms.count <= HTMLFormBuilder.maxForms)
            #expect(forms.allSatisfy { $0.fields.count <= HTMLFormBuilder.maxFields })
            _ = LoginErrorText.find(in: html)
            _ = HTMLFormParser.title(in: html)
        }
        #expect(ratio < Growth.linearLimit, "\(unit): 4× the input took \(ratio)× the CPU time")
    }
}
