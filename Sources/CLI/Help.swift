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
        let table = OptionTable.all
        for section in OptionSection.allCases {
            out += "\n\(section.rawValue):\n"
            for spec in table where spec.section == section {
                out += entry(spec)
            }
        }
        out += """

        VALUES:
          Every option can also be set as AUTHCODE_<NAME> (--client-secret is
          AUTHCODE_CLIENT_SECRET), or in a config file named by -K (curl's
          syntax: 'name value' per line); a flag wins over the environment, and
          both over a config file. A value written @FILE is read from that file
          (one trailing newline dropped), @- from standard input: keep secrets
          out of 'ps' and shell history.

        OUTPUT:
          stdout (or the -o file) carries only the result: the token endpoint's
          JSON on one line, one field with --print, or with --print code a JSON
          object with code, state, iss, code_verifier and redirect_uri (no token
          request is made). Errors go to stderr as 'authcode: error: …'; stdout
          stays empty.

        SECURITY:
          Credentials (--form values, -H headers, user:password@, a replayed
          307/308 body) go only to trusted origins: those of --issuer,
          --authorize-url, --token-url, --step, the endpoints the issuer's
          metadata names, and each --trust-origin. A form or body for another
          origin stops the run (exit 6). The redirect_uri is never fetched
          (compared after RFC 3986 normalisation); an answer carried anywhere
          else is exit 5. Secrets are redacted on stderr in every encoding a
          server may echo them in, and server text shows control characters
          escaped (\\x1b).

        EXIT CODES:

        """
        for code in ExitCode.allCases {
            out += "  \(code.rawValue)  " + wrap(code.summary, width: width - 5).joined(separator: "\n     ") + "\n"
        }
        out += """

        EXAMPLES:
          # A test identity provider that takes the user in the authorization POST:
          authcode --authorize-url http://127.0.0.1:8080/authorize \\
                   --token-url http://127.0.0.1:8080/token \\
                   --client-id demo-app --client-secret @secret.txt \\
                   --redirect-uri http://127.0.0.1:8765/callback \\
                   --scope "openid profile" --form sub=alice | jq .

          # A real login page, then one API call with the token (the answer's
          # body on stdout; exit 10 when it is 400 or more):
          export AUTHCODE_CLIENT_SECRET=…
          authcode --issuer https://idp.example/realms/dev \\
                   --client-id cli --redirect-uri http://127.0.0.1:8765/cb \\
                   --form username=alice --form password=@pw.txt \\
                   --call 'GET https://api.example/me'

          # Reuse the token between runs (refreshed when stale or refused):
          authcode … --cache --call 'GET https://api.example/me'

          # One token per line of users.csv (username,password), 16 at a time:
          authcode … --users users.csv --parallel 16 > tokens.jsonl

          # FAPI 2.0 (PAR, private_key_jwt, DPoP with the API's nonce):
          authcode --issuer https://bank.example --client-id cli \\
                   --client-key key.pem --redirect-uri https://app.example/cb \\
                   --fapi2 --form … --call 'GET https://api.bank.example/me'

        """
        return out
    }

    static let width = 80
    static let helpColumn = 36

    /// `  -H, --header <'name: value'>    help…`, the help wrapped at 80
    /// columns under itself; names too long for their column get a line.
    static func entry(_ spec: OptionDeclaration) -> String {
        let names = "  " + (spec.short.map { "-\($0), " } ?? "    ") + spec.display
        let indent = String(repeating: " ", count: helpColumn)
        let lines = wrap(spec.help, width: width - helpColumn)
        var out = names.count < helpColumn - 1
            ? names + String(repeating: " ", count: helpColumn - names.count)
            : names + "\n" + indent
        out += lines.joined(separator: "\n" + indent)
        return out + "\n"
    }

    /// Greedy word wrap; a word longer than the width stands on its own line.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
