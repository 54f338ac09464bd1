import Core
import JOSE
import Flow

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private key file (`--client-key`, `--dpop-key`), read once while the
/// options are checked, so a wrong file is exit 2 before any request. The
/// key's bytes are never quoted: errors say what is wrong, not what is in
/// it. A file that group or others can read is named in a warning, as ssh
/// names (and refuses) such a key.
enum KeyFile {
    static func load(_ path: String, flag: String, selecting kid: String?, timeout: Double,
                     warnings: inout [String]) throws(UsageError) -> LoadedKey {
        let bytes: [UInt8]
        do throws(UsageError) {
            bytes = try BoundedRead.file(path, timeout: timeout)
        } catch {
            throw UsageError("cannot read '\(path)' for '\(flag)': \(error.message)")
        }
        let key: SigningKey
        do throws(JOSEError) {
            key = try SigningKey.load(bytes, selecting: kid)
        } catch {
            let hint = switch error {
            case .ambiguousKey where flag == OptionTable.flag(\.commandLine.clientKeyFile),
                 .keyIDNotInSet where flag == OptionTable.flag(\.commandLine.clientKeyFile):
                "Choose one of the set's keys by its kid with \(OptionTable.flag(\.flow.profile.clientKeyID))."
            case .ambiguousKey, .keyIDNotInSet: "Give a file that holds one private key."
            default: "Give a PEM private key (PKCS#8, PKCS#1 or SEC1, unencrypted) or a JWK or JWK Set holding d."
            }
            throw UsageError("cannot use '\(path)' for '\(flag)': \(error.message)", hint: hint)
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & 0o044 != 0 {
            warnings.append("authcode: warning: '\(path)' (\(flag)) holds a private key that group or others can read; chmod 600 '\(path)'")
        }
        return LoadedKey(path: path, key: key)
    }
}
