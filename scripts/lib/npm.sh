# npm_install DIR: `npm ci` in DIR when its node_modules is missing or older than its package-lock.json; quiet
# when it is up to date (sourced, not run).
npm_install() {
  local dir=$1
  if [ -d "$dir/node_modules" ] && ! [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    return 0
  fi
  echo "npm: installing the packages of $dir (npm ci)..."
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}
