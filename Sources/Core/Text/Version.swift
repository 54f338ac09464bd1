/// The one place the version is written: --version, --help and User-Agent.
package enum Version {
    package static let current = "0.1.0"
}
