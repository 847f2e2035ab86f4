/**
 * Built-in mail templates, keyed by `<name>.txt` / `<name>.html`. They live in code (not in files)
 * so nothing needs copying into `dist`. A `.txt` template may start with a `Subject: ` line.
 * Override any of them with a file of the same relative path in the template directory.
 */
export const DEFAULT_MAIL_TEMPLATES: Readonly<Record<string, string>> = Object.freeze({
  'auth/email/verify_code.txt': `Subject: Your verification code

Hello {{ username }},

Your verification code is {{ code }}. It expires in {{ minutes }} minutes.

If you did not ask for it, ignore this message.
`,
  'auth/email/verify_code.html': `<!doctype html>
<html>
  <body>
    <p>Hello {{ username }},</p>
    <p>Your verification code is <strong>{{ code }}</strong>. It expires in {{ minutes }} minutes.</p>
    <p>If you did not ask for it, ignore this message.</p>
  </body>
</html>
`,
  'auth/email/password_reset.txt': `Subject: Reset your {{ site }} password

Hello {{ username }},

Someone asked to reset the password of your {{ site }} account. Choose a new one here:

{{ link }}

The link works once, for {{ minutes }} minutes. If you did not ask for it, ignore this message: your password stays as it is.
`,
  'auth/email/password_reset.html': `<!doctype html>
<html>
  <body>
    <p>Hello {{ username }},</p>
    <p>Someone asked to reset the password of your {{ site }} account. <a href="{{ link }}">Choose a new one</a>.</p>
    <p>The link works once, for {{ minutes }} minutes. If you did not ask for it, ignore this message: your password stays as it is.</p>
  </body>
</html>
`,
});

/** Subjects used when a template's `.txt` variant has no `Subject: ` line, keyed by template name. */
export const DEFAULT_MAIL_SUBJECTS: Readonly<Record<string, string>> = Object.freeze({
  'auth/email/verify_code': 'Your verification code',
  'auth/email/password_reset': 'Reset your password',
});
