import CLI

// All behaviour lives in the CLI layer's `AuthCode.run`, so tests call it directly.
AuthCode.main()
