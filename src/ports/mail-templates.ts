/** A rendered mail: subject, plain-text body and HTML body. */
export interface RenderedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Renders named mail templates (for example `auth/email/verify_code`), which the host app may override. */
export interface MailTemplates {
  /** Renders template `name` with `vars`. */
  render(name: string, vars: Readonly<Record<string, string>>): RenderedMail;
}
