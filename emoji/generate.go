package emoji

// The unicode table comes from iamcal's emoji-datasource, pinned here; `go generate` fetches
// that npm package (npm verifies it against the registry's integrity hash) and rewrites
// unicode_table.go.
//go:generate sh -c "npm pack --silent emoji-datasource@16.0.0 > /dev/null && tar xzf emoji-datasource-16.0.0.tgz package/emoji.json && go run ./internal/gen -in package/emoji.json -version 16.0.0 -out unicode_table.go; status=$?; rm -rf package emoji-datasource-16.0.0.tgz; exit $status"
