import CLI

// All behaviour lives in the CLI layer (`AuthCode.run`) so tests can call it directly.
AuthCode.exit(AuthCode.runProcess())
