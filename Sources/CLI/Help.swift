import Core
import HTTP
import OAuth
import Walk
import Flow

/// `authcode --help`, built from the option table so it cannot drift from
/// what the parser accepts.
package enum Help {
    static var text: String {
        var out = """
        authcode \(Version.current) — mint OAuth 2.0 / OpenID Connect tokens through the
        authorization-code grant, without a browser.

        It sends the authorization request itself, walks the login and consent
        pages, refuses the redirect to the redirect_uri (nothing needs to listen
        there), checks state/iss, redeems the code and prints the token JSON.

        USAGE:
          authcode --authorize-url <url> --token-url <url> --client-id <id>
                   --redirect-uri <uri> [OPTIONS]
          authcode --issuer <url> --client-id <id> --redirect-uri <uri> [OPTIONS]

        """
        for group in OptionSpec.Group.allCases {
            out += "\n\(group.rawValue):\n"
            for spec in OptionSpec.all where spec.group == group {
                var names = spec.short.map { "-\($0), " } ?? "    "
                names += spec.display
                let padded = names.count < 34 ? names + String(repeating: " ", count: 34 - names.count) : names + "\n" + String(repeating: " ", count: 36)
                out += "  \(padded)\(spec.help)\n"
            }
        }
        out += """

        VALUES:
          Every option can also be set as AUTHCODE_<NAME> (--client-secret is
          AUTHCODE_CLIENT_SECRET); a flag wins over the environment. A value
          written @FILE is read from that file (one trailing newline dropped), @-
          from standard input: keep secrets out of 'ps' and shell history.

        OUTPUT:
          stdout carries only the result: the token endpoint's JSON on one line,
          one field with --print, or with --print code a JSON object with code,
          state, iss, code_verifier and redirect_uri (no token request is made).
          Errors go to stderr as 'authcode: error: …'; stdout stays empty.

        EXIT CODES:

        """
        for code in ExitCode.allCases {
            out += "  \(code.rawValue)  \(code.summary)\n"
        }
        out += """

        EXAMPLES:
          # A test identity provider that takes the user in the authorization POST:
          authcode --authorize-url http://127.0.0.1:8080/authorize \\
                   --token-url http://127.0.0.1:8080/token \\
                   --client-id demo-app --client-secret @secret.txt \\
                   --redirect-uri http://127.0.0.1:8765/callback \\
                   --scope "openid profile" --form sub=alice | jq .

          # A real login page, with the access token straight into curl:
          export AUTHCODE_CLIENT_SECRET=…
          token=$(authcode --issuer https://idp.example/realms/dev --method GET \\
                   --client-id cli --redirect-uri http://127.0.0.1:8765/cb \\
                   --form username=alice --form password=@pw.txt --print access_token)
          curl -H "Authorization: Bearer $token" https://api.example/me

        """
        return out
    }
}
