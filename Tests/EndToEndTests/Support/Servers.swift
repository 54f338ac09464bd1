import Foundation

/// The scenario-driven fixture authorization server (Fixtures/server), one per
/// test process, started on first use. Besides its primary listener on
/// 127.0.0.1 it listens on 127.0.0.2 and on a second 127.0.0.1 port: two
/// other origins, for the tests of what may travel where.
actor FixtureServer {
    static let shared = FixtureServer()
    private var started: Result<ServerProcess, HarnessError>?

    /// `http://127.0.0.1:PORT`, the primary listener.
    func baseURL() throws(HarnessError) -> String {
        try server().baseURL
    }

    /// `[http://127.0.0.2:PORT, http://127.0.0.1:PORT2]`: the same server
    /// seen from two other origins.
    func otherURLs() throws(HarnessError) -> [String] {
        let extra = try server().extraURLs
        guard extra.count == 2 else { throw HarnessError("the fixture server printed \(extra.count) LISTEN lines, expected 2") }
        return extra
    }

    private func server() throws(HarnessError) -> ServerProcess {
        if started == nil {
            let script = Paths.packageRoot.appendingPathComponent("Fixtures/server/fixture_server.py").path
            // The venv's python when there is one: the totp* scenarios verify
            // codes with its pyotp (Fixtures/server/README.md).
            let python = DjangoServer.python()
            do throws(HarnessError) {
                started = .success(try ServerProcess.start(
                    name: "fixture server", executable: python ?? "/usr/bin/env",
                    arguments: (python == nil ? ["python3"] : []) + [script, "--port", "0", "--extra-listen", "127.0.0.2:0",
                                                                      "--extra-listen", "127.0.0.1:0", "--watch-stdin"], timeout: 10))
            } catch {
                started = .failure(error)
            }
        }
        return try started!.get()
    }
}

/// django-oauth-toolkit (Fixtures/django), one per test process, started on first use.
/// Its python comes from AUTHCODE_DJANGO_PYTHON (set by `make test`) or `<root>/.venv`.
actor DjangoServer {
    static let shared = DjangoServer()
    static let missingVenv = "django venv missing: run 'make test' (it installs Fixtures/django requirements into .venv)"
    private var started: Result<ServerProcess, HarnessError>?

    static func python() -> String? {
        let fm = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["AUTHCODE_DJANGO_PYTHON"], !explicit.isEmpty {
            return fm.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let venv = Paths.packageRoot.appendingPathComponent(".venv/bin/python").path
        return fm.isExecutableFile(atPath: venv) ? venv : nil
    }

    func baseURL() throws(HarnessError) -> String {
        if started == nil {
            if let python = Self.python() {
                let script = Paths.packageRoot.appendingPathComponent("Fixtures/django/run_server.py").path
                let clock = ContinuousClock.now
                do throws(HarnessError) {
                    // READY comes about 0.65 s after start when idle; a loaded 2-core machine
                    // (compiles running beside the tests) can take several times that.
                    started = .success(try ServerProcess.start(
                        name: "django-oauth-toolkit", executable: python,
                        arguments: [script, "--port", "0", "--watch-stdin"], timeout: 30))
                    print("django-oauth-toolkit ready in \(ContinuousClock.now - clock)")
                } catch {
                    started = .failure(error)
                }
            } else {
                started = .failure(HarnessError(Self.missingVenv))
            }
        }
        return try started!.get().baseURL
    }
}
