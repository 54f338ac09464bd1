#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Core
import JOSE
import Walk

/// `--passkey FILE` (README "Passkeys"): the store behind a driver's `Passkey`.
/// FILE is opened like a cache file (CacheFileOpen.swift: never through a
/// link, never waiting on a FIFO), refused when group or others may touch
/// it, rewritten atomically (CacheFiles.writeAtomically: 0600, temporary
/// file and rename) after each use, and made by a registration without ever
/// replacing one (CacheFiles.createNew: link(2)). Every use holds an flock
/// on `FILE.lock` (FileLock.swift) from reading the count to writing the
/// next, so runs at once — threads of a batch, processes of a CI job — never
/// send one count twice.
package final class PasskeyFile: PasskeyStore {
    let path: String
    /// `--passkey-register`.
    let mayRegister: Bool
    /// How long to wait for another run's lock (`--timeout`).
    let timeout: Double
    /// The run's redactor learns every key this file holds or gets.
    let redactor: Redactor

    init(path: String, mayRegister: Bool, timeout: Double, redactor: Redactor) {
        self.path = path
        self.mayRegister = mayRegister
        self.timeout = timeout
        self.redactor = redactor
    }

    /// Checked before any request: FILE holds a usable passkey, or — with
    /// `--passkey-register` only — does not exist yet; either way its
    /// directory takes the rewrite. The credential, nil when there is none yet.
    package static func check(_ path: String, register: Bool) throws(WebAuthnError) -> PasskeyCredential? {
        let credential = try read(path)
        if credential == nil && !register { throw .file(.absent, path: path) }
        guard access(directory(of: path), W_OK) == 0 else { throw .file(.directoryNotWritable, path: path) }
        return credential
    }

    /// FILE's credential, nil when there is no file.
    static func read(_ path: String) throws(WebAuthnError) -> PasskeyCredential? {
        let opened: Int32?
        do throws(FileError) {
            opened = try CacheFileOpen.open(path, what: .passkeyFile, flags: O_RDONLY, privacy: .rewrittenSecret)
        } catch {
            throw .store(error)
        }
        guard let descriptor = opened else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .store(.cannotInspect(.passkeyFile, path: path, reason: String(cString: strerror(errno))))
        }
        // As a literal secret in a config file is refused (CLI/ConfigFile.swift):
        // a private key nobody else may read or change.
        guard info.st_mode & 0o077 == 0 else { throw .file(.exposed(mode: UInt32(info.st_mode)), path: path) }
        let contents: [UInt8]?
        do throws(FileError) {
            contents = try CacheFileOpen.readAll(descriptor, path: path, what: .passkeyFile, limit: PasskeyCredential.maximumFileSize)
        } catch {
            throw .store(error)
        }
        guard let contents else { throw .file(.tooLarge, path: path) }
        do throws(PasskeyFileProblem) {
            return try PasskeyCredential(file: contents)
        } catch {
            throw .file(error, path: path)
        }
    }

    package func update<Answer>(_ use: (PasskeyCredential) throws(WebAuthnError) -> (Answer, PasskeyCredential)) throws(WebAuthnError) -> Answer {
        let lock = try self.lock()
        defer { withExtendedLifetime(lock) {} }
        guard let credential = try Self.read(path) else { throw .noCredentialYet(path: path) }
        redactor.remember(passkey: credential)
        let (answer, next) = try use(credential)
        let contents: [UInt8]
        do throws(JOSEError) { contents = try next.fileContents() } catch { throw .signing(error) }
        do throws(FileError) {
            try CacheFiles.writeAtomically(contents, to: path, what: .passkeyFile)
        } catch {
            throw .store(error)
        }
        return answer
    }

    package func checkRegistration() throws(WebAuthnError) {
        guard mayRegister else { throw .registrationNotAllowed(path: path) }
        var info = stat()
        if lstat(path, &info) == 0 { throw .passkeyExists(path: path) }
    }

    package func create(_ credential: PasskeyCredential) throws(WebAuthnError) {
        redactor.remember(passkey: credential)
        let contents: [UInt8]
        do throws(JOSEError) { contents = try credential.fileContents() } catch { throw .signing(error) }
        let lock = try self.lock()
        defer { withExtendedLifetime(lock) {} }
        let made: Bool
        do throws(FileError) {
            made = try CacheFiles.createNew(contents, at: path, what: .passkeyFile)
        } catch {
            throw .store(error)
        }
        guard made else { throw .passkeyExists(path: path) }
    }

    private func lock() throws(WebAuthnError) -> FileLock {
        do throws(FileError) {
            return try FileLock(path: path + ".lock", timeout: timeout, what: .passkeyLock)
        } catch {
            throw .store(error)
        }
    }

    /// The directory part of `path` ("." for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
