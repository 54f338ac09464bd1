/// What only the command line reads, as given: where the result goes,
/// what the parser answers on its own or reads first, and the switches and
/// paths the rules turn into settings (OptionRules.swift). Flow never sees it.
package struct CommandLineValues: Equatable, Sendable {
    /// `-o FILE`: the result goes there instead of stdout (OutputFile.swift).
    package var outputFile: String?
    /// `-v` and `-q` as given; the rules refuse both and make `flow.output.verbosity`.
    package var verbose = false
    package var quiet = false
    /// `--client-key` and `--dpop-key` as given (paths), and `--dpop` (or
    /// `--fapi2` turning it on); the rules read the keys and make
    /// `flow.profile.clientKey` and `flow.profile.dpop` (KeyFile.swift).
    package var clientKeyFile: String?
    package var dpopKeyFile: String?
    package var dpop = false
    /// `--proxy` and `--noproxy` as given; with the environment's proxies
    /// they make `flow.connection.transport.proxy` (HTTP/ProxySettings.swift).
    package var proxyURL: String?
    package var noProxy: String?
    /// `-K FILE`s as given on the command line (or `AUTHCODE_CONFIG`);
    /// the parser has read them.
    package var configFiles: [String] = []
    package var completion: CompletionShell?
    package var help = false
    package var version = false

    package init() {}
}
