/**
 * Built-in mail templates (Liquid), keyed by `<name>.txt` / `<name>.html`. They live in code (not
 * in files) so nothing needs copying into `dist`. A `.txt` template may start with a `Subject: `
 * line. Override any of them, the layout too, with a file of the same relative path in the
 * template directory.
 */
export const DEFAULT_MAIL_TEMPLATES: Readonly<Record<string, string>> = Object.freeze({
  // The layout every built-in mail extends: `{% layout 'layout/email' %}` and a `content` block.
  'layout/email.txt': `{% block content %}{% endblock %}
-- 
{{ site | default: 'Portico' }}
`,
  'layout/email.html': `<!doctype html>
<html>
  <body style="font-family: system-ui, sans-serif; line-height: 1.5">
{% block content %}{% endblock %}
    <p style="color: #666">— {{ site | default: 'Portico' }}</p>
  </body>
</html>
`,
  'auth/email/verify_code.txt': `Subject: Your verification code

{% layout 'layout/email' %}{% block content %}Hello {{ username }},

Your verification code is {{ code }}. It expires in {{ minutes }} minutes.

If you did not ask for it, ignore this message.
{% endblock %}`,
  'auth/email/verify_code.html': `{% layout 'layout/email' %}{% block content %}
    <p>Hello {{ username }},</p>
    <p>Your verification code is <strong>{{ code }}</strong>. It expires in {{ minutes }} minutes.</p>
    <p>If you did not ask for it, ignore this message.</p>
{% endblock %}`,
  'auth/email/password_reset.txt': `Subject: Reset your {{ site | default: 'Portico' }} password

{% layout 'layout/email' %}{% block content %}Hello {{ username }},

Someone asked to reset the password of your {{ site | default: 'Portico' }} account. Choose a new one here:

{{ link }}

The link works once, for {{ minutes }} minutes. If you did not ask for it, ignore this message: your password stays as it is.
{% endblock %}`,
  'auth/email/password_reset.html': `{% layout 'layout/email' %}{% block content %}
    <p>Hello {{ username }},</p>
    <p>Someone asked to reset the password of your {{ site | default: 'Portico' }} account. <a href="{{ link }}">Choose a new one</a>.</p>
    <p>The link works once, for {{ minutes }} minutes. If you did not ask for it, ignore this message: your password stays as it is.</p>
{% endblock %}`,
});

/** Subjects used when a template's `.txt` variant has no `Subject: ` line, keyed by template name. */
export const DEFAULT_MAIL_SUBJECTS: Readonly<Record<string, string>> = Object.freeze({
  'auth/email/verify_code': 'Your verification code',
  'auth/email/password_reset': 'Reset your password',
});
