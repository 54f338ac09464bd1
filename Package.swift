// swift-tools-version:6.0
// authcode: browserless OAuth 2.0 authorization-code grant from the command line.
// No package dependencies by design (DESIGN.md §1): HTTP is libcurl through the CCurl shim.
import PackageDescription

let package = Package(
    name: "authcode",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "authcode", targets: ["authcode"]),
    ],
    dependencies: [],
    targets: [
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .target(
            name: "AuthCodeKit",
            dependencies: ["CCurl"]
        ),
        .executableTarget(
            name: "authcode",
            dependencies: ["AuthCodeKit"]
        ),
        .testTarget(
            name: "AuthCodeKitTests",
            dependencies: ["AuthCodeKit"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: []
        ),
    ],
    swiftLanguageModes: [.v6]
)
