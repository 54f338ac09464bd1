import CLI

// All behaviour lives in AuthCodeKit's `AuthCode.run` so tests can call it directly.
let code = AuthCode.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: AuthCode.processEnvironment())
AuthCode.exit(code)
