package emoji

// The unicode table comes from iamcal's emoji-datasource and Zulip's emoji names, both
// pinned here; `go generate` fetches the npm package (npm verifies it against the registry's
// integrity hash) and tools/setup/emoji/emoji_names.py at a fixed Zulip commit, and rewrites
// unicode_table.go (see internal/gen for how the names combine).
//go:generate sh -c "npm pack --silent emoji-datasource@16.0.0 > /dev/null && tar xzf emoji-datasource-16.0.0.tgz package/emoji.json && curl -fsSL -o emoji_names.py https://raw.githubusercontent.com/zulip/zulip/e8b44f491f8967823273a6d5acd3d3d376e62b90/tools/setup/emoji/emoji_names.py && go run ./internal/gen -in package/emoji.json -names emoji_names.py -version 16.0.0 -out unicode_table.go; status=$?; rm -rf package emoji-datasource-16.0.0.tgz emoji_names.py; exit $status"
