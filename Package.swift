// swift-tools-version:6.0
// authcode: browserless OAuth 2.0 authorization-code grant from the command line.
// No package dependencies by design: HTTP is libcurl through the CCurl shim,
// and nothing imports Foundation (ARCHITECTURE.md).
//
// One target per layer; each depends only on the layers below it, so a layer
// that imports one above it does not compile:
//   Core ← HTTP ← OAuth, Walk ← Flow ← CLI ← authcode
//   Core ← JOSE (over CCrypto) ← OAuth: signatures verified below the grants,
//   and client assertions, request objects and DPoP proofs signed there
//   JOSE ← Walk: the software passkey (Walk/WebAuthn) signs with its keys
//   HTTP ← Curl (over CCurl) ← authcode: only the executable and its tests
//   link libcurl; the CLI gets the transport from main.swift.
import PackageDescription

let package = Package(
    name: "authcode",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "authcode", targets: ["authcode"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "Core"),
        .target(name: "HTTP", dependencies: ["Core"]),
        .target(name: "Curl", dependencies: ["Core", "HTTP", "CCurl"]),
        .target(name: "JOSE", dependencies: ["Core", "CCrypto"]),
        .target(name: "OAuth", dependencies: ["Core", "HTTP", "JOSE"]),
        .target(name: "Walk", dependencies: ["Core", "HTTP", "JOSE"]),
        .target(name: "Flow", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "Walk"]),
        .target(name: "CLI", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "Walk", "Flow"]),
        .executableTarget(name: "authcode", dependencies: ["CLI", "Curl"]),
        // Writes authcode.1 from the option table (make man); not shipped, so
        // the product carries no roff.
        .executableTarget(name: "authcode-man", dependencies: ["Core", "CLI"]),

        // Test doubles shared by the test targets; never linked into the product.
        .target(name: "TestSupport", dependencies: ["Core", "HTTP"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreTests", dependencies: ["Core", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["Core", "HTTP", "TestSupport"]),
        .testTarget(name: "CurlTests", dependencies: ["Core", "HTTP", "Curl"]),
        .testTarget(name: "OAuthTests", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "TestSupport"]),
        .testTarget(name: "WalkTests", dependencies: ["Core", "HTTP", "JOSE", "Walk", "TestSupport"]),
        .testTarget(name: "FlowTests", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "Walk", "Flow", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "Walk", "Flow", "CLI", "TestSupport"]),
        // Whole commands in-process: AuthCode.run over ScriptedTransport.
        .testTarget(name: "RunTests", dependencies: ["Core", "HTTP", "JOSE", "OAuth", "Walk", "Flow", "CLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
        .testTarget(name: "JOSETests", dependencies: ["Core", "JOSE", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
