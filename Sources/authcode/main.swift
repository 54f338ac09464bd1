import CLI
import Curl

// All behaviour lives in the CLI layer's `AuthCode.run`, so tests call it
// directly; only this target links libcurl, and hands it down as the transport.
AuthCode.main(transport: CurlTransport.factory, versions: .loaded)
