;;; quarry-tests.el --- ERT tests of quarry.el against the real daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by scripts/test:
;;   QUARRY_BIN=.build/debug/quarry emacs --batch -Q -L clients/emacs \
;;     -l clients/emacs/tests/quarry-tests.el -f ert-run-tests-batch-and-exit
;; Each test starts the real `quarry' binary on a temporary data directory.

;;; Code:

(require 'ert)
(require 'quarry)

(defvar quarry-test--binary
  (or (getenv "QUARRY_BIN")
      (expand-file-name "../../../.build/debug/quarry"
                        (file-name-directory (or load-file-name buffer-file-name)))))

(defun quarry-test--wait-for (predicate &optional what)
  "Process output until PREDICATE holds (10 s at most), as a frontend idles.
WHAT names the wait in the failure."
  (let ((deadline (+ (float-time) 10)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (unless (funcall predicate) (error "Timed out waiting for %s" (or what predicate)))))

(defvar quarry-test--serve-flags nil
  "More `quarry serve' flags for the daemon of `quarry-test-with-daemon'.")

(defmacro quarry-test-with-daemon (&rest body)
  "Run BODY with a fresh socket daemon that `quarry-connection' reaches."
  (declare (indent 0) (debug t))
  `(let* ((directory (make-temp-file "qel" t))
          (quarry-socket (expand-file-name "q.sock" directory))
          (quarry-program quarry-test--binary)
          (quarry-connection-method 'socket)
          (quarry-data-directory (expand-file-name "data" directory))
          (daemon (make-process :name "quarry-test-daemon" :noquery t :buffer nil
                                :stderr (get-buffer-create " *quarry-test-daemon*")
                                :command (append (list quarry-test--binary "serve" "--socket" quarry-socket
                                                       "--data-dir" quarry-data-directory)
                                                 quarry-test--serve-flags))))
     (unwind-protect
         (progn (quarry-test--wait-for (lambda () (file-exists-p quarry-socket)) "the daemon's socket")
                ,@body)
       (quarry-disconnect)
       (dolist (buffer (buffer-list))
         (when (string-prefix-p "*quarry" (buffer-name buffer)) (kill-buffer buffer)))
       (delete-process daemon)
       (delete-directory directory t))))

(defun quarry-test--save (index records)
  "Save RECORDS (plists) into INDEX."
  (jsonrpc-request (quarry-connection) 'saveObjects `(:index ,index :objects ,(vconcat records))))

(defun quarry-test--people ()
  (quarry-test--save "people" '((:objectID "1" :name "George Clooney" :role "actor")
                                (:objectID "2" :name "Amal Clooney" :role "lawyer")
                                (:objectID "3" :name "Brad Pitt" :role "actor"))))

(defun quarry-test--songs (count)
  "COUNT songs with a genre facet."
  (jsonrpc-request (quarry-connection) 'setSettings
                   '(:index "songs" :settings (:attributesForFaceting ["genre"] :searchableAttributes ["title"])))
  (quarry-test--save "songs" (cl-loop for n below count
                                      collect `(:objectID ,(format "%02d" n) :title ,(format "song %d" n)
                                                :genre ,(nth (% n 3) '("rock" "pop" "jazz"))))))

(defun quarry-test--results-text ()
  (with-current-buffer (get-buffer-create quarry-search--buffer) (buffer-string)))

(defun quarry-test--has-match-face (position)
  (memq 'quarry-match (ensure-list (get-text-property position 'face))))

(ert-deftest quarry-live-search-shows-hits-for-a-query-and-a-typo ()
  (quarry-test-with-daemon
    (quarry-test--people)
    (setq quarry-search--index "people")
    (quarry-search-update "clooney")
    (quarry-test--wait-for (lambda () (string-match-p "2 hits" (quarry-test--results-text))) "2 hits")
    (should (string-match-p "George Clooney" (quarry-test--results-text)))
    (should (string-match-p "Amal Clooney" (quarry-test--results-text)))
    (quarry-search-update "brda")
    (quarry-test--wait-for (lambda () (string-match-p "Brad Pitt" (quarry-test--results-text))) "the typo's hit")
    (should (string-match-p "\\`1 hit in people$" (quarry-test--results-text)))))

(ert-deftest quarry-live-search-counts-hits-in-english ()
  (quarry-test-with-daemon
    (quarry-test--people)
    (setq quarry-search--index "people")
    (dolist (case '(("brad" . "1 hit in people") ("clooney" . "2 hits in people") ("zzzz" . "no hits in people")))
      (quarry-search-update (car case))
      (quarry-test--wait-for (lambda () (string-prefix-p (cdr case) (quarry-test--results-text))) (cdr case)))))

(ert-deftest quarry-live-search-never-shows-an-older-keystroke-over-a-newer-one ()
  (quarry-test-with-daemon
    (quarry-test--people)
    (setq quarry-search--index "people")
    (dolist (prefix '("a" "am" "ama" "amal"))
      (quarry-search-update prefix))
    (quarry-test--wait-for (lambda () (string-match-p "Amal" (quarry-test--results-text))) "amal's hit")
    (accept-process-output nil 0.3)  ; the older replies have arrived by now, and were dropped
    (should (string-match-p "\\`1 hit in" (quarry-test--results-text)))
    (should-not (string-match-p "Brad" (quarry-test--results-text)))))

(ert-deftest quarry-faces-sit-on-the-matched-characters-in-any-script ()
  (quarry-test-with-daemon
    (quarry-test--save "mixed" '((:objectID "1" :name "Crème brûlée 🍮 at 東京 café")))
    (setq quarry-search--index "mixed")
    (dolist (case '(("東京" . "東京") ("cafe" . "café") ("brulee" . "brûlée") ("creme" . "Crème")))
      (with-current-buffer (get-buffer-create quarry-search--buffer)
        (let ((inhibit-read-only t)) (erase-buffer)))  ; so the wait below sees this query's hits
      (quarry-search-update (car case))
      (quarry-test--wait-for (lambda () (string-match-p "1 hit in" (quarry-test--results-text))) (car case))
      (with-current-buffer quarry-search--buffer
        (goto-char (point-min))
        (should (search-forward (cdr case) nil t))
        (let ((start (match-beginning 0)) (end (match-end 0)))
          (should (cl-loop for position from start below end always (quarry-test--has-match-face position)))
          (should-not (quarry-test--has-match-face (1- start)))
          (should-not (and (< end (line-end-position)) (quarry-test--has-match-face end))))))))

(ert-deftest quarry-session-buffer-follows-a-change-made-by-another-connection ()
  (quarry-test-with-daemon
    (quarry-test--songs 12)
    (let ((buffer (quarry-session "shared" "songs")))
      (quarry-test--wait-for (lambda () (with-current-buffer buffer (string-match-p "Hits 12 of 12" (buffer-string))))
                             "the session's first results")
      ;; A second frontend on a raw socket: no Emacs command runs while it types.
      (let ((other (make-network-process :name "other" :family 'local :service quarry-socket
                                         :coding 'binary :noquery t :buffer nil)))
        (unwind-protect
            (progn
              (process-send-string
               other (concat "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n"
                             "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"openSession\",\"params\":{\"session\":\"shared\"}}\n"
                             "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"setQuery\",\"params\":{\"session\":\"shared\",\"query\":\"song 1\"}}\n"))
              (quarry-test--wait-for (lambda () (with-current-buffer buffer
                                                  (string-match-p "Query   song 1" (buffer-string))))
                                     "the other frontend's query")
              (quarry-test--wait-for (lambda () (with-current-buffer buffer
                                                  (not (string-match-p "Hits 12 of 12" (buffer-string)))))
                                     "the other frontend's results"))
          (delete-process other))))))

;; Estimates, then exact counts (protocol/methods/resultsUpdated.md). With
;; QUARRY_TEST_TYPESENSE_FLAGS (the `quarry serve' flags of a real Typesense node,
;; set by Tests/EndToEnd/test_clients_emacs.py) the daemon keeps its indices there,
;; and a one-letter query over 80 words starting with it is first shown as an
;; estimate, "~N", then as the exact 1,200; on the embedded engine never as "~".
(ert-deftest quarry-session-shows-an-estimate-then-the-exact-count ()
  (let* ((flags (getenv "QUARRY_TEST_TYPESENSE_FLAGS"))
         (quarry-test--serve-flags (and flags (split-string flags "\x1f")))
         (shown nil)
         ;; Each render's results: their query and their total as shown.
         (record (lambda (&rest _)
                   (when (string-match "Hits [0-9]+ of \\([~0-9,]+\\)" (buffer-string))
                     (push (cons (plist-get quarry-session--results :query) (match-string 1 (buffer-string))) shown)))))
    (quarry-test-with-daemon
      (jsonrpc-request (quarry-connection) 'setSettings '(:index "things" :settings (:searchableAttributes ["title"])))
      (let ((words (cl-loop for a across "aeiou" append (cl-loop for b across "bdfglmnprstvwyzk"
                                                                  collect (format "c%c%cx" a b)))))
        (quarry-test--save "things" (cl-loop for i below 1200
                                             collect (list :objectID (number-to-string i)
                                                           :title (format "%s item %d" (nth (% i 80) words) i)))))
      (let ((buffer (quarry-session "estimates" "things")))
        (advice-add 'quarry-session--render :after record)
        (unwind-protect
            (progn
              (quarry-test--wait-for (lambda () (member '("" . "1,200") shown)) "the first results")
              (with-current-buffer buffer (quarry-session--change 'setQuery '(:query "c")))
              (quarry-test--wait-for (lambda () (equal (car shown) '("c" . "1,200"))) "the exact count")
              (let ((estimates (seq-filter (lambda (text) (string-prefix-p "~" text))
                                           (mapcar #'cdr (seq-filter (lambda (entry) (equal (car entry) "c")) shown)))))
                (if flags
                    (should (and estimates (string-match-p "\\`~[0-9,]+\\'" (car (last estimates)))))
                  (should-not estimates))))
          (advice-remove 'quarry-session--render record))))))

(ert-deftest quarry-session-facet-toggle-refines-and-keeps-disjunctive-counts ()
  (quarry-test-with-daemon
    (quarry-test--songs 12)
    (let ((buffer (quarry-session "facets" "songs")))
      (quarry-test--wait-for (lambda () (with-current-buffer buffer (string-match-p "\\[ \\] rock (4)" (buffer-string))))
                             "the genre facet")
      (with-current-buffer buffer
        (goto-char (point-min))
        (search-forward "[ ] rock")
        (quarry-session-toggle-facet))
      (quarry-test--wait-for (lambda () (with-current-buffer buffer (string-match-p "\\[x\\] rock (4)" (buffer-string))))
                             "rock refined")
      (with-current-buffer buffer
        (should (string-match-p "Hits 4 of 4" (buffer-string)))
        (should (string-match-p "\\[ \\] pop (4)" (buffer-string)))  ; an or-group counts as if unrefined
        (should (cl-every (lambda (hit) (equal (plist-get hit :genre) "rock")) quarry-session--hits))))))

(ert-deftest quarry-session-load-more-appends-the-next-page ()
  (quarry-test-with-daemon
    (quarry-test--songs 12)
    (let* ((quarry-hits-per-page 5)
           (buffer (quarry-session "pages" "songs")))
      (quarry-test--wait-for (lambda () (with-current-buffer buffer (string-match-p "Hits 5 of 12" (buffer-string))))
                             "the first page")
      (with-current-buffer buffer (quarry-session-load-more))
      (quarry-test--wait-for (lambda () (with-current-buffer buffer (string-match-p "Hits 10 of 12" (buffer-string))))
                             "the second page")
      (with-current-buffer buffer
        (should (equal (length (delete-dups (mapcar (lambda (hit) (plist-get hit :objectID))
                                                    (append quarry-session--hits nil))))
                       10))))))

(ert-deftest quarry-a-private-stdio-daemon-shuts-down-with-status-zero ()
  (let* ((directory (make-temp-file "qel" t))
         (quarry-program quarry-test--binary)
         (quarry-connection-method 'stdio)
         (quarry-data-directory (expand-file-name "data" directory)))
    (unwind-protect
        (progn
          (quarry-test--people)
          (should (equal (plist-get (jsonrpc-request (quarry-connection) 'search '(:index "people" :query "brad"))
                                    :nbHits)
                         1))
          (should (equal (quarry-disconnect) 0)))
      (delete-directory directory t))))

(ert-deftest quarry-leaving-a-shared-daemon-leaves-it-running ()
  (quarry-test-with-daemon
    (quarry-connection)
    (quarry-disconnect)
    (accept-process-output nil 0.2)
    (should (process-live-p daemon))
    (should (quarry-connection))))

(ert-deftest quarry-a-hit-with-a-path-and-line-is-visited-there ()
  (let ((file (make-temp-file "quarry-hit" nil ".txt" "one\ntwo\nthree\n")))
    (unwind-protect
        (progn
          (quarry-show-hit `(:objectID "f" :path ,file :line 3) "files")
          (should (equal (buffer-file-name) file))
          (should (equal (line-number-at-pos) 3))
          (kill-buffer))
      (delete-file file))))

(provide 'quarry-tests)
;;; quarry-tests.el ends here
