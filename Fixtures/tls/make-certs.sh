#!/usr/bin/env bash
# Generates a throwaway PKI for the TLS tests into DIR (never committed):
#   ca.pem/ca.key          the test CA (pass it with --cacert)
#   server.pem/.key        for 127.0.0.1, localhost and idp.test (--connect-to tests)
#   wrongname.pem/.key     valid, but for other.test only (name mismatch)
#   expired.pem/.key       for 127.0.0.1, expired in 2020
#   client.pem/.key        a client certificate for mutual TLS
set -euo pipefail
dir=${1:?usage: make-certs.sh DIR}
mkdir -p "$dir"
cd "$dir"
[ -f client.pem ] && exit 0

openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 30 \
    -subj "/CN=authcode test CA" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null

# A minimal `openssl ca` set-up: the only portable way to set an explicit
# (past) validity period with OpenSSL 3.0.
mkdir -p ca.db && : > ca.db/index.txt && echo 1000 > ca.db/serial
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = test
[ test ]
dir = ca.db
database = $dir/index.txt
serial = $dir/serial
new_certs_dir = $dir
certificate = ca.pem
private_key = ca.key
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = copy
[ anything ]
commonName = supplied
CNF

issue() { # name cn san [startdate enddate] [extendedKeyUsage]
    local name=$1 cn=$2 san=$3 start=${4:-} end=${5:-} usage=${6:-serverAuth}
    openssl req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "/CN=$cn" \
        -addext "subjectAltName=$san" -addext "extendedKeyUsage=$usage" 2>/dev/null
    local dates=(-days 30)
    [ -n "$start" ] && dates=(-startdate "$start" -enddate "$end")
    openssl ca -batch -config ca.cnf -in "$name.csr" -out "$name.pem" -notext "${dates[@]}" 2>/dev/null
    rm -f "$name.csr"
}
issue server 127.0.0.1 "IP:127.0.0.1,DNS:localhost,DNS:idp.test"
issue wrongname other.test "DNS:other.test"
issue expired 127.0.0.1 "IP:127.0.0.1,DNS:localhost" 20200101000000Z 20200102000000Z
issue client alice "DNS:alice.client" "" "" clientAuth
