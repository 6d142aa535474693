# Bash completion for quarry: subcommands, and index names (asked of the
# shared daemon) where a command takes an index.  source this file.
_quarry() {
    local current=${COMP_WORDS[COMP_CWORD]}
    local commands="serve connect stop import export search settings call watch fzf mcp open help"
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$current")
        return
    fi
    case ${COMP_WORDS[1]} in
        import|export|search|settings|fzf|open)
            if [ "$COMP_CWORD" -eq 2 ]; then
                local names
                names=$(quarry call listIndices 2>/dev/null | grep -o '"name":"[^"]*"' | cut -d'"' -f4)
                mapfile -t COMPREPLY < <(compgen -W "$names" -- "$current")
            elif [ "${COMP_WORDS[1]}" = import ] && [ "$COMP_CWORD" -eq 3 ]; then
                mapfile -t COMPREPLY < <(compgen -f -- "$current")
            fi
            ;;
        call)
            if [ "$COMP_CWORD" -eq 2 ]; then
                local methods="addFacetsSearcher addHitsSearcher clearFilters clearObjects closeSession deleteIndex
                    deleteObjects getSettings getState importFile listIndices listenHTTP listSessions loadPage openSession
                    partialUpdateObjects removeSearcher saveObjects search setFilters setHierarchicalFilter setIndex
                    setQuery setSettings stopServer toggleFilter toggleRelevantSort"
                mapfile -t COMPREPLY < <(compgen -W "$methods" -- "$current")
            fi
            ;;
    esac
}
complete -F _quarry quarry
