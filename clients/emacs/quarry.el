;;; quarry.el --- Live, faceted, typo-tolerant search on a Quarry daemon  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: matching, tools

;; This file is not part of GNU Emacs.

;;; Commentary:

;; A frontend for Quarry, the local search daemon, on Emacs's own
;; jsonrpc.el.  `quarry-search' searches an index as you type in the
;; minibuffer; `quarry-session' opens or joins a named search session
;; that other frontends (the Neovim picker, `quarry fzf', Python
;; scripts) share, and follows their changes as they are made.
;;
;; Match ranges are asked for in code points ("utf-32"), which are
;; Emacs's own string indices, so highlights need no conversion.

;;; Code:

(require 'jsonrpc)
(require 'cl-lib)
(require 'subr-x)
(require 'seq)

(defgroup quarry nil
  "Search with a Quarry daemon."
  :group 'matching
  :prefix "quarry-")

(defcustom quarry-program "quarry"
  "The quarry executable."
  :type 'string)

(defcustom quarry-connection-method 'socket
  "How to reach Quarry.
`socket': the shared daemon on its Unix socket, started in the
background when none answers (it stops after ten idle minutes).
`stdio': a private `quarry serve' on pipes, shut down on disconnect."
  :type '(choice (const :tag "Shared daemon on its socket" socket)
                 (const :tag "Private process on stdio" stdio)))

(defcustom quarry-socket nil
  "The daemon's socket; nil for the default.
The default is $QUARRY_SOCK, else $XDG_RUNTIME_DIR/quarry/quarry.sock,
else $TMPDIR/quarry-UID/quarry.sock, as for the other clients."
  :type '(choice (const :tag "Default" nil) file))

(defcustom quarry-data-directory nil
  "The data directory of a daemon this package starts; nil for the default."
  :type '(choice (const :tag "Default" nil) directory))

(defcustom quarry-default-index nil
  "The index `quarry-search' offers first; nil to always ask."
  :type '(choice (const :tag "Ask" nil) string))

(defcustom quarry-hits-per-page 20
  "How many hits a search shows."
  :type 'integer)

(defcustom quarry-title-attributes '("name" "title" "label")
  "Attributes tried, in order, for the text that stands for a hit."
  :type '(repeat string))

(defcustom quarry-annotation-attributes nil
  "Attributes shown after a hit's title; nil for a snippet of the best match."
  :type '(repeat string))

(defcustom quarry-hit-action-function #'quarry-show-hit
  "Called with a hit (a plist) and its index when a hit is chosen."
  :type 'function)

(defface quarry-match '((t :inherit match))
  "Face for the parts of a hit that match the query.")

(defface quarry-annotation '((t :inherit completions-annotations))
  "Face for the text after a hit's title.")

(defface quarry-refined '((t :inherit bold))
  "Face for refined facet values in a session buffer.")

(defface quarry-heading '((t :inherit font-lock-keyword-face))
  "Face for the headings of a session buffer.")

;;;; Connection

(defvar quarry--connection nil
  "The live `jsonrpc-process-connection', or nil.")

(defvar quarry--connection-spawned nil
  "Non-nil when `quarry--connection' is a private stdio process.")

(defvar quarry--session-buffers (make-hash-table :test #'equal)
  "Session name to the buffer following it.")

(defun quarry--default-socket ()
  "The socket the other Quarry clients use by default."
  (or quarry-socket
      (let ((explicit (getenv "QUARRY_SOCK")))
        (and explicit (not (string-empty-p explicit)) explicit))
      (let ((runtime (getenv "XDG_RUNTIME_DIR")))
        (and runtime (file-directory-p runtime)
             (expand-file-name "quarry/quarry.sock" runtime)))
      (expand-file-name (format "quarry-%d/quarry.sock" (user-uid))
                        (directory-file-name (or (getenv "TMPDIR") "/tmp")))))

(defun quarry--open-socket (path)
  "A network process on the Unix socket PATH, or nil when nothing answers."
  (condition-case nil
      (make-network-process :name "quarry" :family 'local :service path
                            :coding 'utf-8-emacs-unix :noquery t)
    (file-error nil)))

(defun quarry--start-daemon (path)
  "Start a background `quarry serve' on PATH and wait for it to answer."
  (let ((args (append (list "serve" "--socket" path "--idle-timeout" "600")
                      (when quarry-data-directory
                        (list "--data-dir" (expand-file-name quarry-data-directory))))))
    (make-directory (file-name-directory path) t)
    (apply #'call-process quarry-program nil 0 nil args)
    (cl-loop repeat 100
             for process = (quarry--open-socket path)
             when process return process
             do (sleep-for 0.05)
             finally (user-error "Quarry: no daemon answered at %s" path))))

(defun quarry--make-process ()
  "The process behind a new connection, per `quarry-connection-method'."
  (pcase quarry-connection-method
    ('stdio
     (make-process :name "quarry"
                   :command (append (list quarry-program "serve")
                                    (when quarry-data-directory
                                      (list "--data-dir" (expand-file-name quarry-data-directory))))
                   :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                   :stderr (get-buffer-create "*quarry stderr*")))
    (_ (let ((path (quarry--default-socket)))
         (or (quarry--open-socket path) (quarry--start-daemon path))))))

(defun quarry-connection ()
  "The connection to Quarry, opened and initialized on first use."
  (unless (and quarry--connection (jsonrpc-running-p quarry--connection))
    (let* ((process (quarry--make-process))
           (connection (jsonrpc-process-connection
                        :name "quarry" :process process
                        :events-buffer-scrollback-size 0
                        :notification-dispatcher #'quarry--dispatch
                        :on-shutdown (lambda (_) (setq quarry--connection nil)))))
      (setq quarry--connection-spawned (eq quarry-connection-method 'stdio))
      (jsonrpc-request connection 'initialize
                       '(:clientInfo (:name "quarry.el")
                         :capabilities (:general (:positionEncodings ["utf-32" "utf-16"]))))
      (jsonrpc-notify connection 'initialized nil)
      (setq quarry--connection connection)))
  quarry--connection)

(defun quarry-disconnect ()
  "Close the connection.
A private stdio process is shut down and must exit with status 0; the
shared daemon keeps running for the other frontends."
  (interactive)
  (when-let ((connection quarry--connection))
    (setq quarry--connection nil)
    (let ((process (jsonrpc--process connection)))
      (if (not quarry--connection-spawned)
          (delete-process process)
        (jsonrpc-request connection 'shutdown nil)
        (jsonrpc-notify connection 'exit nil)
        (cl-loop repeat 100 while (process-live-p process) do (accept-process-output process 0.05)))
      (process-exit-status process))))

(defun quarry--request (method params)
  "Send METHOD with PARAMS and wait for the result."
  (jsonrpc-request (quarry-connection) method params))

(defun quarry--async (method params &optional success)
  "Send METHOD with PARAMS; call SUCCESS with the result.
Session changes go this way: a synchronous request returns from inside
the process filter, leaving a push that came in the same read unparsed."
  (jsonrpc-async-request (quarry-connection) method params
                         :success-fn (or success #'ignore)
                         :error-fn (lambda (error)
                                     (message "Quarry: %s" (plist-get error :message)))))

(defun quarry--dispatch (_connection method params)
  "Route the push METHOD with PARAMS to the session buffer it is about."
  (when-let* ((name (plist-get params :session))
              (buffer (gethash name quarry--session-buffers)))
    (if (buffer-live-p buffer)
        (with-current-buffer buffer
          (pcase method
            ('stateChanged (quarry-session--on-state params))
            ('resultsUpdated (quarry-session--on-results params))))
      (remhash name quarry--session-buffers))))

;;;; Hits

(defun quarry--get (plist key)
  "The member KEY (a string) of PLIST, a JSON object."
  (plist-get plist (intern (concat ":" key))))

(defun quarry--highlight (text ranges)
  "TEXT with the face `quarry-match' on RANGES.
RANGES are [START END] pairs in code points."
  (let ((text (copy-sequence text)))
    (seq-doseq (range ranges)
      (let ((start (aref range 0)) (end (aref range 1)))
        (when (and (<= 0 start) (< start end) (<= end (length text)))
          (add-face-text-property start end 'quarry-match nil text))))
    text))

(defun quarry--title-attribute (hit)
  "The attribute that stands for HIT.
A title attribute, else the first matched string, else any string."
  (let ((ranges (plist-get hit :_matchRanges)))
    (or (seq-find (lambda (name) (stringp (quarry--get hit name))) quarry-title-attributes)
        (cl-loop for (key _) on ranges by #'cddr
                 for name = (substring (symbol-name key) 1)
                 when (stringp (quarry--get hit name)) return name)
        (cl-loop for (key value) on hit by #'cddr
                 for name = (substring (symbol-name key) 1)
                 when (and (stringp value) (not (string-prefix-p "_" name))) return name))))

(defun quarry--title (hit)
  "HIT's title, its matches highlighted."
  (if-let ((name (quarry--title-attribute hit)))
      (quarry--highlight (quarry--get hit name) (quarry--get (plist-get hit :_matchRanges) name))
    (format "%s" (plist-get hit :objectID))))

(defun quarry--annotation (hit)
  "A one-line annotation for HIT."
  (let ((text (if quarry-annotation-attributes
                  (mapconcat (lambda (name) (format "%s" (or (quarry--get hit name) "")))
                             quarry-annotation-attributes "  ")
                (let ((title (quarry--title-attribute hit)) (ranges (plist-get hit :_matchRanges)))
                  (or (cl-loop for (key spans) on ranges by #'cddr
                               for name = (substring (symbol-name key) 1)
                               for value = (quarry--get hit name)
                               unless (or (equal name title) (not (stringp value)))
                               return (quarry--snippet value spans))
                      "")))))
    (propertize (string-trim (replace-regexp-in-string "[\n\t ]+" " " text)) 'face 'quarry-annotation)))

(defun quarry--snippet (text spans)
  "About 60 characters of TEXT around the first of SPANS, highlighted."
  (let* ((first (and (> (length spans) 0) (aref spans 0)))
         (start (max 0 (- (if first (aref first 0) 0) 20)))
         (end (min (length text) (+ start 60)))
         (shifted (seq-map (lambda (span) (vector (- (aref span 0) start) (- (aref span 1) start)))
                           (seq-filter (lambda (span) (and (>= (aref span 0) start) (<= (aref span 1) end))) spans))))
    (concat (if (> start 0) "…" "") (quarry--highlight (substring text start end) shifted)
            (if (< end (length text)) "…" ""))))

(defun quarry--hit-line (hit)
  "One line for HIT: its title and annotation."
  (let ((annotation (quarry--annotation hit)))
    (concat (quarry--title hit) (if (string-empty-p annotation) "" "  ") annotation)))

(defun quarry-show-hit (hit index)
  "Show HIT, a record of INDEX: visit its path/file (and line), or show it."
  (let ((file (or (quarry--get hit "path") (quarry--get hit "file")))
        (line (quarry--get hit "line")))
    (if (and (stringp file) (file-exists-p file))
        (progn (find-file file)
               (when (integerp line) (goto-char (point-min)) (forward-line (1- line))))
      (with-current-buffer (get-buffer-create (format "*quarry: %s %s*" index (plist-get hit :objectID)))
        (let ((inhibit-read-only t) (ranges (plist-get hit :_matchRanges)))
          (erase-buffer)
          (cl-loop for (key value) on hit by #'cddr
                   for name = (substring (symbol-name key) 1)
                   unless (string-prefix-p "_" name)
                   do (insert (propertize name 'face 'quarry-heading) ": "
                              (if (stringp value)
                                  (quarry--highlight value (quarry--get ranges name))
                                (format "%S" value))
                              "\n")))
        (goto-char (point-min))
        (special-mode)
        (pop-to-buffer (current-buffer))))))

;;;; Live search

(defvar quarry-search--index nil "The index the live search reads.")
(defvar quarry-search--generation 0 "Bumped per keystroke; a reply for an older one is dropped.")
(defvar quarry-search--hits [] "The hits shown.")
(defvar quarry-search--selected 0 "The selected hit's position.")
(defconst quarry-search--buffer "*quarry-search*")

(defvar quarry-search-minibuffer-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map minibuffer-local-map)
    (define-key map (kbd "C-n") #'quarry-search-next)
    (define-key map (kbd "C-p") #'quarry-search-previous)
    (define-key map (kbd "<down>") #'quarry-search-next)
    (define-key map (kbd "<up>") #'quarry-search-previous)
    map)
  "Keys of the `quarry-search' minibuffer.")

(defun quarry--read-index ()
  "Ask for an index, offering the ones Quarry has."
  (let ((names (seq-map (lambda (item) (plist-get item :name))
                        (plist-get (quarry--request 'listIndices nil) :items))))
    (completing-read (format-prompt "Index" quarry-default-index) names nil nil nil nil quarry-default-index)))

(defun quarry-search-update (query)
  "Search `quarry-search--index' for QUERY and show the hits when they come.
A reply to an older keystroke than the newest is dropped."
  (let ((generation (cl-incf quarry-search--generation)))
    (quarry--async 'search `(:index ,quarry-search--index :query ,query :hitsPerPage ,quarry-hits-per-page)
                   (lambda (result)
                     (when (= generation quarry-search--generation)
                       (quarry-search--render (plist-get result :hits) (plist-get result :nbHits)))))))

(defun quarry--count (count noun)
  "COUNT NOUN in English: \"no hits\", \"1 hit\", \"2 hits\"."
  (pcase count
    (0 (format "no %ss" noun))
    (1 (format "1 %s" noun))
    (_ (format "%d %ss" count noun))))

(defun quarry--grouped (count)
  "COUNT with its thousands grouped: \"1,216\"."
  (let ((text (number-to-string count)))
    (while (string-match "\\([0-9]\\)\\([0-9]\\{3\\}\\)\\(,\\|$\\)" text)
      (setq text (replace-match "\\1,\\2\\3" t nil text)))
    text))

(defun quarry--total (results)
  "The nbHits of RESULTS as shown: \"1,216\", or an estimate as one, \"~1,200\".
A Typesense cluster answers a keystroke with estimates first; the exact
counts follow as a second resultsUpdated of the same version."
  (let ((flags (plist-get results :exhaustive)))
    (concat (if (or (eq (plist-get flags :nbHits) :json-false) (eq (plist-get results :exhaustiveNbHits) :json-false)) "~" "")
            (quarry--grouped (or (plist-get results :nbHits) 0)))))

(defun quarry-search--render (hits total)
  "Show HITS (of TOTAL) in the results buffer."
  (setq quarry-search--hits hits
        quarry-search--selected (min quarry-search--selected (max 0 (1- (length hits)))))
  (with-current-buffer (get-buffer-create quarry-search--buffer)
    (let ((inhibit-read-only t))
      (erase-buffer)
      (insert (propertize (format "%s in %s\n" (quarry--count total "hit") quarry-search--index) 'face 'quarry-heading))
      (seq-do-indexed (lambda (hit position)
                        (insert (propertize (quarry--hit-line hit) 'quarry-hit position) "\n"))
                      hits)
      (quarry-search--mark-selection))
    (setq buffer-read-only t)))

(defun quarry-search--mark-selection ()
  "Move the selection overlay to the selected hit."
  (with-current-buffer (get-buffer-create quarry-search--buffer)
    (remove-overlays (point-min) (point-max) 'quarry-selection t)
    (when (> (length quarry-search--hits) 0)
      (save-excursion
        (goto-char (point-min))
        (forward-line (1+ quarry-search--selected))
        (let ((overlay (make-overlay (line-beginning-position) (1+ (line-end-position)))))
          (overlay-put overlay 'face 'highlight)
          (overlay-put overlay 'quarry-selection t))))))

(defun quarry-search-next ()
  "Select the next hit."
  (interactive)
  (setq quarry-search--selected (min (1+ quarry-search--selected) (max 0 (1- (length quarry-search--hits)))))
  (quarry-search--mark-selection))

(defun quarry-search-previous ()
  "Select the previous hit."
  (interactive)
  (setq quarry-search--selected (max 0 (1- quarry-search--selected)))
  (quarry-search--mark-selection))

(defun quarry-search--on-change (&rest _)
  "Search again for the minibuffer's contents."
  (quarry-search-update (minibuffer-contents-no-properties)))

;;;###autoload
(defun quarry-search (index)
  "Search INDEX as you type.
\<quarry-search-minibuffer-map>In the minibuffer,
\[quarry-search-next] selects the next hit, \[quarry-search-previous] the
previous one, and \[exit-minibuffer] runs `quarry-hit-action-function'
on it."
  (interactive (list (quarry--read-index)))
  (setq quarry-search--index index quarry-search--hits [] quarry-search--selected 0)
  (display-buffer (get-buffer-create quarry-search--buffer) '(display-buffer-at-bottom (window-height . 0.4)))
  (quarry-search-update "")
  (minibuffer-with-setup-hook
      (lambda () (add-hook 'after-change-functions #'quarry-search--on-change nil t))
    (read-from-minibuffer (format "Search %s: " index) nil quarry-search-minibuffer-map))
  (let ((hit (and (> (length quarry-search--hits) 0) (aref quarry-search--hits quarry-search--selected))))
    (when-let ((window (get-buffer-window quarry-search--buffer))) (quit-window nil window))
    (if hit (funcall quarry-hit-action-function hit index) (message "Quarry: no hit"))))

;;;; Session buffer

(defvar-local quarry-session--name nil "The session this buffer follows.")
(defvar-local quarry-session--version -1 "The newest state version shown.")
(defvar-local quarry-session--state nil "The session's state, as `stateChanged' carries it.")
(defvar-local quarry-session--results nil "The hits searcher's result for `quarry-session--version'.")
(defvar-local quarry-session--hits [] "The hits shown, every page loaded so far.")
(defvar-local quarry-session--next-page 1 "The page `quarry-session-load-more' asks for.")

(defvar quarry-session-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map special-mode-map)
    (define-key map (kbd "n") #'quarry-session-next-item)
    (define-key map (kbd "p") #'quarry-session-previous-item)
    (define-key map (kbd "RET") #'quarry-session-act)
    (define-key map (kbd "s") #'quarry-session-set-query)
    (define-key map (kbd "/") #'quarry-session-set-query)
    (define-key map (kbd "f") #'quarry-session-toggle-facet)
    (define-key map (kbd "c") #'quarry-session-clear-filters)
    (define-key map (kbd "r") #'quarry-session-toggle-relevant-sort)
    (define-key map (kbd "o") #'quarry-session-sort-by)
    (define-key map (kbd "+") #'quarry-session-load-more)
    (define-key map (kbd "g") #'quarry-session-refresh)
    (define-key map (kbd "C-c C-k") #'quarry-session-cancel)
    map)
  "Keys of `quarry-session-mode'.")

(define-derived-mode quarry-session-mode special-mode "Quarry"
  "Follow a Quarry search session shared with other frontends.
\\{quarry-session-mode-map}"
  (setq-local revert-buffer-function (lambda (&rest _) (quarry-session-refresh))))

(defun quarry-session--searcher ()
  "The session's first hits searcher, from its state."
  (seq-find (lambda (searcher) (equal (plist-get searcher :type) "hits"))
            (plist-get quarry-session--state :searchers)))

(defun quarry-session--on-state (params)
  "Take the state in PARAMS unless it is older than the one shown."
  (when (>= (plist-get params :stateVersion) quarry-session--version)
    (setq quarry-session--state (plist-get params :state))
    (quarry-session--render)))

(defun quarry-session--on-results (params)
  "Show the results in PARAMS unless they are older than the ones shown."
  (let ((version (plist-get params :stateVersion)))
    (when (>= version quarry-session--version)
      (setq quarry-session--version version
            quarry-session--results (seq-find (lambda (result) (equal (plist-get result :type) "hits"))
                                              (plist-get params :results))
            quarry-session--hits (plist-get quarry-session--results :hits)
            quarry-session--next-page 1)
      (quarry-session--render))))

(defun quarry-session--render ()
  "Lay the session out: query, facets, hits."
  (let ((inhibit-read-only t) (line (line-number-at-pos)) (searcher (quarry-session--searcher))
        (results quarry-session--results))
    (erase-buffer)
    (insert (propertize "Session " 'face 'quarry-heading) quarry-session--name
            (propertize "  index " 'face 'quarry-heading) (format "%s" (plist-get searcher :index))
            (if (eql (plist-get searcher :relevancyStrictness) 0) "  (all hits)" "")
            "\n"
            (propertize "Query   " 'face 'quarry-heading) (or (plist-get quarry-session--state :query) "") "\n\n")
    (cl-loop for (key values) on (plist-get results :facets) by #'cddr
             for attribute = (substring (symbol-name key) 1)
             do (insert (propertize (concat attribute "\n") 'face 'quarry-heading))
             (seq-doseq (entry values)
               (let ((refined (eq (plist-get entry :isRefined) t)))
                 (insert (propertize (format "  %s %s (%d)\n" (if refined "[x]" "[ ]")
                                             (plist-get entry :value) (plist-get entry :count))
                                     'face (and refined 'quarry-refined)
                                     'quarry-facet (cons attribute (plist-get entry :value)))))))
    (insert (propertize (format "\nHits %d of %s\n" (length quarry-session--hits) (quarry--total results))
                        'face 'quarry-heading))
    (seq-doseq (hit quarry-session--hits)
      (insert (propertize (concat "  " (quarry--hit-line hit)) 'quarry-hit hit) "\n"))
    (goto-char (point-min))
    (forward-line (1- line))))

(defun quarry-session--change (method params)
  "Send the session change METHOD with PARAMS; the pushes update the buffer."
  (quarry--async method (append (list :session quarry-session--name) params)))

;;;###autoload
(defun quarry-session (name &optional index)
  "Open or join the session NAME; search INDEX when it is new.
Its buffer shows the query, facets and hits, and follows the changes
other frontends make."
  (interactive
   (let* ((names (seq-map (lambda (session) (plist-get session :session))
                          (plist-get (quarry--request 'listSessions nil) :sessions)))
          (name (completing-read "Session: " names)))
     (list name (unless (member name names) (quarry--read-index)))))
  (let* ((settings (and index (quarry--request 'getSettings `(:index ,index))))
         (facets (and settings (seq-map (lambda (entry)
                                          (replace-regexp-in-string "\\`\\(searchable\\|filterOnly\\)(\\(.*\\))\\'" "\\2" entry))
                                        (plist-get settings :attributesForFaceting))))
         (searchers (and index (vector `(:type "hits" :index ,index :hitsPerPage ,quarry-hits-per-page
                                         :facets ,(vconcat facets)))))
         (buffer (get-buffer-create (format "*quarry: %s*" name))))
    (with-current-buffer buffer
      (quarry-session-mode)
      (setq quarry-session--name name)
      (puthash name buffer quarry--session-buffers)
      (add-hook 'kill-buffer-hook (lambda () (remhash name quarry--session-buffers)) nil t)
      (quarry--async 'openSession (if searchers `(:session ,name :searchers ,searchers) `(:session ,name))
                     (lambda (result)
                       (when (buffer-live-p buffer)
                         (with-current-buffer buffer
                           (quarry-session--on-state result))))))
    (pop-to-buffer-same-window buffer)
    buffer))

(defun quarry-session-set-query (query)
  "Set the session's QUERY."
  (interactive (list (read-string "Query: " (plist-get quarry-session--state :query))))
  (quarry-session--change 'setQuery `(:query ,query)))

(defun quarry-session-toggle-facet ()
  "Toggle the facet value at point, in the or-group named after its attribute."
  (interactive)
  (if-let ((facet (get-text-property (point) 'quarry-facet)))
      (quarry-session--change 'toggleFilter `(:filter (:attribute ,(car facet) :value ,(cdr facet))
                                              :group (:name ,(car facet) :operator "or")))
    (user-error "No facet value here")))

(defun quarry-session-clear-filters ()
  "Clear every filter of the session."
  (interactive)
  (quarry-session--change 'clearFilters nil))

(defun quarry-session-toggle-relevant-sort ()
  "Toggle relevant sort (all hits or the most relevant) on a virtual replica."
  (interactive)
  (quarry-session--change 'toggleRelevantSort `(:searcher ,(plist-get (quarry-session--searcher) :searcher))))

(defun quarry-session-sort-by (index)
  "Search INDEX (the primary or one of its replicas) in the session."
  (interactive
   (let* ((current (plist-get (quarry-session--searcher) :index))
          (settings (quarry--request 'getSettings `(:index ,current)))
          (choices (cons current (seq-map (lambda (replica) (replace-regexp-in-string "\\`virtual(\\(.*\\))\\'" "\\1" replica))
                                          (plist-get settings :replicas)))))
     (list (completing-read "Sort by: " choices nil t))))
  (quarry-session--change 'setIndex `(:searcher ,(plist-get (quarry-session--searcher) :searcher) :index ,index)))

(defun quarry-session-load-more ()
  "Append the next page of hits."
  (interactive)
  (let ((buffer (current-buffer)) (version quarry-session--version) (page quarry-session--next-page))
    (quarry--async 'loadPage `(:session ,quarry-session--name :searcher ,(plist-get (quarry-session--searcher) :searcher)
                               :page ,page :stateVersion ,version)
                   (lambda (result)
                     (when (buffer-live-p buffer)
                       (with-current-buffer buffer
                         (when (= version quarry-session--version)
                           (setq quarry-session--hits (vconcat quarry-session--hits
                                                               (plist-get (plist-get result :result) :hits))
                                 quarry-session--next-page (1+ page))
                           (quarry-session--render))))))))

(defun quarry-session-refresh ()
  "Read the session's state again."
  (interactive)
  (let ((buffer (current-buffer)))
    (quarry--async 'getState `(:session ,quarry-session--name)
                   (lambda (result) (with-current-buffer buffer (quarry-session--on-state result))))))

(defun quarry-session-act ()
  "Toggle the facet value at point, or act on the hit at point."
  (interactive)
  (cond ((get-text-property (point) 'quarry-facet) (quarry-session-toggle-facet))
        ((get-text-property (point) 'quarry-hit)
         (funcall quarry-hit-action-function (get-text-property (point) 'quarry-hit)
                  (plist-get (quarry-session--searcher) :index)))
        (t (user-error "Nothing to act on here"))))

(defun quarry-session--move (direction)
  "Go to the next facet value or hit in DIRECTION (1 or -1)."
  (forward-line direction)
  (while (and (not (get-text-property (point) 'quarry-hit)) (not (get-text-property (point) 'quarry-facet))
              (zerop (forward-line direction)))))

(defun quarry-session-next-item ()
  "Go to the next facet value or hit."
  (interactive)
  (quarry-session--move 1))

(defun quarry-session-previous-item ()
  "Go to the previous facet value or hit."
  (interactive)
  (quarry-session--move -1))

(defun quarry-session-cancel ()
  "Leave the session (it lives on for the other frontends)."
  (interactive)
  (kill-buffer (current-buffer)))

(provide 'quarry)
;;; quarry.el ends here
