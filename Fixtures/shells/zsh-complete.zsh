#!/usr/bin/env zsh
# Prints, one per line, the matches zsh's completion system offers for a
# command line, given a completion script under test:
#
#   zsh -f Fixtures/shells/zsh-complete.zsh source SCRIPT 'authcode --pri'
#   zsh -f Fixtures/shells/zsh-complete.zsh fpath DIR 'authcode --pri'
#
# `source` loads SCRIPT after compinit; `fpath` puts DIR (holding _authcode)
# in $fpath before compinit, as an installed completion is found.
# Completion widgets run only inside the line editor, so this starts an
# interactive `zsh -f` in a pseudo-terminal (zsh/zpty), types the line and a
# TAB bound to a widget that runs complete-word between two markers, and
# prints every match the completion functions add (compadd is wrapped).
# The caller bounds the time: zpty -r waits for the end marker.
emulate -L zsh
zmodload zsh/zpty || exit 2
mode=$1 target=$2 line=$3
[[ $mode == (source|fpath) && -n $target && -n $line ]] || { print -u2 "usage: $0 source|fpath SCRIPT|DIR LINE"; exit 2 }
init=$(mktemp) || exit 2
trap 'rm -f $init; zpty -d capture 2>/dev/null' EXIT

{
  print -r -- "PS1='' RPS1='' PS2=''"
  print -r -- "zle_bracketed_paste=()"
  print -r -- "setopt no_beep"
  print -r -- "bindkey -e"
  [[ $mode == fpath ]] && print -r -- "fpath=(${(q)target} \$fpath)"
  print -r -- "autoload -Uz compinit && compinit -u -D"
  [[ $mode == source ]] && print -r -- "source ${(q)target}"
  cat <<'INIT'
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' menu no
# Every match added, printed; calls that only collect into arrays (-O, -A, -D) add none.
compadd() {
  if [[ " ${@[1,(i)(-|--)]} " == *\ -[[:alpha:]]#[OAD]*\ * ]]; then
    builtin compadd "$@"
    return
  fi
  local -a __matches
  builtin compadd -A __matches "$@"
  local __match
  for __match in $__matches; do print -r -- "<<MATCH>>$__match"; done
  builtin compadd "$@"
}
_capture_complete() {
  print -r -- '<<BEGIN>>'
  zle complete-word
  print -r -- '<<END>>'
}
zle -N _capture_complete
bindkey '^I' _capture_complete
print -r -- '<<READY>>'
INIT
} >$init

zpty capture zsh -f -i || exit 2
zpty -w capture "source ${(q)init}"
zpty -r capture output '*<<READY>>*' || exit 3
zpty -w -n capture "$line"$'\t'
zpty -r capture output '*<<END>>*' || exit 3
output=${output//$'\r'/}
output=${output#*<<BEGIN>>}
for text in ${(f)output}; do
  [[ $text == '<<MATCH>>'* ]] && print -r -- ${text#<<MATCH>>}
done
exit 0
