/// What kind of value an option takes, for shells and man pages: a file
/// name completes as a path, a choice from its list.
package enum OptionValueKind: String, Sendable, Equatable {
    case none, text, number, url, file, directory, choice
}
