import Flow
import OAuth

/// Every way a run fails, as `AuthCode.run` catches it: a flow's error
/// (with the lower layers' inside it), or the CLI's own. ErrorReport.swift
/// maps each to its exit code, line and hint.
enum CLIError: Error, Equatable {
    case usage(UsageError)
    case flow(FlowError)
    /// The result cannot be printed as asked.
    case unprintable(PrintError)
    /// The result was made and could not be written.
    case unwritten(OutputFailure)
}

/// Why a result cannot be printed as `--print` asks (ResultPrinter.swift).
enum PrintError: Error, Equatable {
    /// The token response lacks this field.
    case missingField(String)
    case noExpiry
    case noIDTokenClaims
    case noUserinfo
    /// A value printed raw holds control characters: which one.
    case controlCharacters(String)
    /// The id_token whose claims are printed cannot be read.
    case idToken(OAuthError)
}

/// Where a made result could not be written, why, and what that cost.
enum OutputFailure: Equatable {
    /// A single run's result.
    case result(output: String, reason: String, LostResult)
    /// A batch's results, after the `-o` file failed at the end.
    case batchResults(output: String, reason: String)
}

/// What a lost result had cost, for the exit-1 line.
enum LostResult: Equatable {
    /// `--print code`: the code was not redeemed.
    case unredeemedCode
    /// The token came from the cache and is still there.
    case cached
    case refreshed
    /// The code was redeemed and its token is lost.
    case redeemed
    /// `--forget`: nothing was minted.
    case nothing

    init(_ result: FlowResult) {
        switch result {
        case .code: self = .unredeemedCode
        case .token(let token) where token.source == .cache: self = .cached
        case .token(let token) where token.source == .refresh: self = .refreshed
        case .token: self = .redeemed
        case .forgotten: self = .nothing
        }
    }
}
