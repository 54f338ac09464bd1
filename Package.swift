// swift-tools-version:6.0
// authcode: browserless OAuth 2.0 authorization-code grant from the command line.
// No package dependencies by design: HTTP is libcurl through the CCurl shim,
// and nothing imports Foundation (ARCHITECTURE.md).
//
// One target per layer; each depends only on the layers below it, so a layer
// that imports one above it does not compile:
//   Core ← HTTP ← OAuth, Walk ← Flow ← CLI ← authcode
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
        .target(name: "Core"),
        .target(name: "HTTP", dependencies: ["Core", "CCurl"]),
        .target(name: "OAuth", dependencies: ["Core", "HTTP"]),
        .target(name: "Walk", dependencies: ["Core", "HTTP"]),
        .target(name: "Flow", dependencies: ["Core", "HTTP", "OAuth", "Walk"]),
        .target(name: "CLI", dependencies: ["Core", "HTTP", "OAuth", "Walk", "Flow"]),
        .executableTarget(name: "authcode", dependencies: ["CLI"]),
        // Writes authcode.1 from the option table (make man); not shipped, so
        // the product carries no roff.
        .executableTarget(name: "authcode-man", dependencies: ["Core", "CLI"]),

        // Test doubles shared by the test targets; never linked into the product.
        .target(name: "TestSupport", dependencies: ["Core"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "HTTPTests", dependencies: ["Core", "HTTP", "Walk", "TestSupport"]),
        .testTarget(name: "OAuthTests", dependencies: ["Core", "HTTP", "OAuth"]),
        .testTarget(name: "WalkTests", dependencies: ["Core", "HTTP", "Walk"]),
        .testTarget(name: "FlowTests", dependencies: ["Core", "HTTP", "OAuth", "Walk", "Flow"]),
        .testTarget(name: "CLITests", dependencies: ["Core", "HTTP", "OAuth", "Walk", "Flow", "CLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
    ],
    swiftLanguageModes: [.v6]
)
