// The REST client of Portico API 1.0.0, written by `portico gen-client` from its OpenAPI document.
// Do not edit: run `npx portico gen-client` again after the models or the REST configuration change.

/** One author row (`?fields=` may project it; `?include=` adds related rows). */
export interface Author {
  id: number;
  name: string;
  bio: string | null;
  email: string | null;
}

export interface AuthorList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Author[];
}

export interface AuthorInput {
  name: string;
  bio?: string | null;
  email?: string | null;
}

export interface AuthorPatch {
  name?: string;
  bio?: string | null;
  email?: string | null;
}

/** One auth_user row (`?fields=` may project it; `?include=` adds related rows). */
export interface AuthUser {
  id: number;
  username: string;
  is_staff: boolean;
  is_superuser: boolean;
  is_active: boolean;
  date_joined: string;
}

/** One post row (`?fields=` may project it; `?include=` adds related rows). */
export interface Post {
  id: number;
  title: string;
  body: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id: number;
  /** foreign key; `?include=created_by` hydrates the row */
  created_by_id: number | null;
  published: boolean;
  featured: boolean;
  score: number;
  created_at: string;
  deleted_at: string | null;
  /** The author row `author_id` names: present with `?include=author`, null when it is missing or out of sight */
  author?: Author | null;
  /** The auth_user row `created_by_id` names: present with `?include=created_by`, null when it is missing or out of sight */
  created_by?: AuthUser | null;
  /** The keys of the linked tag rows, in the order they were linked: present with `?include=tags` and in the answer to a write that names them */
  tags?: string[];
}

export interface PostList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Post[];
}

/** A new reply row under comment.replies */
export interface CommentRepliesItem {
  body: string;
}

/** A new comment row under post.comments */
export interface PostCommentsItem {
  body: string;
  votes?: number;
  /** reply rows created with this row (their `comment_id` is set from it) */
  replies?: CommentRepliesItem[];
}

/** An existing reply row under comment.replies, named by its key */
export interface CommentRepliesItemUpdate {
  id: number;
  body?: string;
}

/** An existing comment row under post.comments, named by its key */
export interface PostCommentsItemUpdate {
  id: number;
  body?: string;
  votes?: number;
  /** reply rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  replies?: (CommentRepliesItem | CommentRepliesItemUpdate)[];
}

export interface PostInput {
  title: string;
  body?: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id: number;
  published?: boolean;
  score?: number;
  created_at?: string;
  deleted_at?: string | null;
  /** The keys of the tag rows linked to this row: replaces its links (a missing tag answers 400); absent leaves them as they are */
  tags?: string[];
  /** comment rows created with this row (their `post_id` is set from it) */
  comments?: PostCommentsItem[];
}

export interface PostReplace {
  title: string;
  body?: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id: number;
  published?: boolean;
  score?: number;
  created_at?: string;
  deleted_at?: string | null;
  /** The keys of the tag rows linked to this row: replaces its links (a missing tag answers 400); absent leaves them as they are */
  tags?: string[];
  /** comment rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  comments?: (PostCommentsItem | PostCommentsItemUpdate)[];
}

export interface PostPatch {
  title?: string;
  body?: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id?: number;
  published?: boolean;
  score?: number;
  created_at?: string;
  deleted_at?: string | null;
  /** The keys of the tag rows linked to this row: replaces its links (a missing tag answers 400); absent leaves them as they are */
  tags?: string[];
  /** comment rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  comments?: (PostCommentsItem | PostCommentsItemUpdate)[];
}

export interface PostBulkItem {
  title: string;
  body?: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id: number;
  published?: boolean;
  score?: number;
  created_at?: string;
  deleted_at?: string | null;
}

/** One post change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes */
export interface PostBulkPatchItem {
  id: number;
  title?: string;
  body?: string | null;
  /** foreign key; `?include=author` hydrates the row */
  author_id?: number;
  published?: boolean;
  score?: number;
  created_at?: string;
  deleted_at?: string | null;
  /** Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back */
  _version?: string;
}

/** One comment row (`?fields=` may project it; `?include=` adds related rows). */
export interface Comment {
  id: number;
  /** foreign key; `?include=post` hydrates the row */
  post_id: number;
  body: string;
  votes: number;
  /** The post row `post_id` names: present with `?include=post`, null when it is missing or out of sight */
  post?: Post | null;
}

export interface CommentList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Comment[];
}

export interface CommentInput {
  /** foreign key; `?include=post` hydrates the row */
  post_id: number;
  body: string;
  votes?: number;
  /** reply rows created with this row (their `comment_id` is set from it) */
  replies?: CommentRepliesItem[];
}

export interface CommentReplace {
  /** foreign key; `?include=post` hydrates the row */
  post_id: number;
  body: string;
  votes?: number;
  /** reply rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  replies?: (CommentRepliesItem | CommentRepliesItemUpdate)[];
}

export interface CommentPatch {
  /** foreign key; `?include=post` hydrates the row */
  post_id?: number;
  body?: string;
  votes?: number;
  /** reply rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  replies?: (CommentRepliesItem | CommentRepliesItemUpdate)[];
}

/** One reply row (`?fields=` may project it; `?include=` adds related rows). */
export interface Reply {
  id: number;
  /** foreign key; `?include=comment` hydrates the row */
  comment_id: number;
  body: string;
  /** The comment row `comment_id` names: present with `?include=comment`, null when it is missing or out of sight */
  comment?: Comment | null;
}

export interface ReplyList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Reply[];
}

export interface ReplyInput {
  /** foreign key; `?include=comment` hydrates the row */
  comment_id: number;
  body: string;
}

export interface ReplyPatch {
  /** foreign key; `?include=comment` hydrates the row */
  comment_id?: number;
  body?: string;
}

/** One tag row (`?fields=` may project it; `?include=` adds related rows). */
export interface Tag {
  id: string;
  label: string;
}

export interface TagList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Tag[];
}

export interface TagInput {
  id: string;
  label: string;
}

export interface TagReplace {
  label: string;
}

export interface TagPatch {
  label?: string;
}

/** One tag change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes */
export interface TagBulkPatchItem {
  id: string;
  label?: string;
  /** Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back */
  _version?: string;
}

/** One ticket row (`?fields=` may project it; `?include=` adds related rows). */
export interface Ticket {
  id: string;
  title: string;
}

export interface TicketList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Ticket[];
}

/** One shop_order row (`?fields=` may project it; `?include=` adds related rows). */
export interface ShopOrder {
  id: number;
  customer: string;
  created_at: string;
}

export interface ShopOrderList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: ShopOrder[];
}

/** A new item_part row under order_item.parts */
export interface OrderItemPartsItem {
  name: string;
}

/** A new order_item row under shop_order.items */
export interface ShopOrderItemsItem {
  sku: string;
  qty: number;
  /** item_part rows created with this row (their `item_id` is set from it) */
  parts?: OrderItemPartsItem[];
}

/** An existing item_part row under order_item.parts, named by its key */
export interface OrderItemPartsItemUpdate {
  id: number;
  name?: string;
}

/** An existing order_item row under shop_order.items, named by its key */
export interface ShopOrderItemsItemUpdate {
  id: number;
  sku?: string;
  qty?: number;
  /** item_part rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  parts?: (OrderItemPartsItem | OrderItemPartsItemUpdate)[];
}

export interface ShopOrderInput {
  customer: string;
  created_at?: string;
  /** order_item rows created with this row (their `order_id` is set from it) */
  items?: ShopOrderItemsItem[];
}

export interface ShopOrderReplace {
  customer: string;
  created_at?: string;
  /** order_item rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  items?: (ShopOrderItemsItem | ShopOrderItemsItemUpdate)[];
}

export interface ShopOrderPatch {
  customer?: string;
  created_at?: string;
  /** order_item rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  items?: (ShopOrderItemsItem | ShopOrderItemsItemUpdate)[];
}

export interface ShopOrderBulkItem {
  customer: string;
  created_at?: string;
}

/** One shop_order change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes */
export interface ShopOrderBulkPatchItem {
  id: number;
  customer?: string;
  created_at?: string;
  /** Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back */
  _version?: string;
}

/** One order_item row (`?fields=` may project it; `?include=` adds related rows). */
export interface OrderItem {
  id: number;
  /** foreign key; `?include=order` hydrates the row */
  order_id: number;
  sku: string;
  qty: number;
  /** The shop_order row `order_id` names: present with `?include=order`, null when it is missing or out of sight */
  order?: ShopOrder | null;
}

export interface OrderItemList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: OrderItem[];
}

export interface OrderItemInput {
  /** foreign key; `?include=order` hydrates the row */
  order_id: number;
  sku: string;
  qty: number;
  /** item_part rows created with this row (their `item_id` is set from it) */
  parts?: OrderItemPartsItem[];
}

export interface OrderItemReplace {
  /** foreign key; `?include=order` hydrates the row */
  order_id: number;
  sku: string;
  qty: number;
  /** item_part rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  parts?: (OrderItemPartsItem | OrderItemPartsItemUpdate)[];
}

export interface OrderItemPatch {
  /** foreign key; `?include=order` hydrates the row */
  order_id?: number;
  sku?: string;
  qty?: number;
  /** item_part rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched */
  parts?: (OrderItemPartsItem | OrderItemPartsItemUpdate)[];
}

export interface OrderItemBulkItem {
  /** foreign key; `?include=order` hydrates the row */
  order_id: number;
  sku: string;
  qty: number;
}

/** One order_item change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes */
export interface OrderItemBulkPatchItem {
  id: number;
  /** foreign key; `?include=order` hydrates the row */
  order_id?: number;
  sku?: string;
  qty?: number;
  /** Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back */
  _version?: string;
}

/** One item_part row (`?fields=` may project it; `?include=` adds related rows). */
export interface ItemPart {
  id: number;
  /** foreign key; `?include=item` hydrates the row */
  item_id: number;
  name: string;
  /** The order_item row `item_id` names: present with `?include=item`, null when it is missing or out of sight */
  item?: OrderItem | null;
}

export interface ItemPartList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: ItemPart[];
}

export interface ItemPartInput {
  /** foreign key; `?include=item` hydrates the row */
  item_id: number;
  name: string;
}

export interface ItemPartPatch {
  /** foreign key; `?include=item` hydrates the row */
  item_id?: number;
  name?: string;
}

/** One project row (`?fields=` may project it; `?include=` adds related rows). */
export interface Project {
  id: number;
  name: string;
}

export interface ProjectList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Project[];
}

export interface ProjectInput {
  name: string;
}

export interface ProjectPatch {
  name?: string;
}

/** One milestone row (`?fields=` may project it; `?include=` adds related rows). */
export interface Milestone {
  id: number;
  /** foreign key; `?include=project` hydrates the row */
  project_id: number;
  title: string;
  due: string | null;
  /** The project row `project_id` names: present with `?include=project`, null when it is missing or out of sight */
  project?: Project | null;
}

export interface MilestoneList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Milestone[];
}

export interface MilestoneInput {
  title: string;
  due?: string | null;
}

export interface MilestonePatch {
  title?: string;
  due?: string | null;
}

/** One milestone change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes */
export interface MilestoneBulkPatchItem {
  id: number;
  title?: string;
  due?: string | null;
  /** Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back */
  _version?: string;
}

/** One member row (`?fields=` may project it; `?include=` adds related rows). */
export interface Member {
  id: number;
  username: string;
  nickname: string | null;
}

export interface MemberList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Member[];
}

export interface MemberInput {
  username: string;
  nickname?: string | null;
}

export interface MemberPatch {
  username?: string;
  nickname?: string | null;
}

/** One staff_report row (`?fields=` may project it; `?include=` adds related rows). */
export interface StaffReport {
  id: number;
  title: string;
  body: string | null;
}

export interface StaffReportList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: StaffReport[];
}

export interface StaffReportInput {
  title: string;
  body?: string | null;
}

export interface StaffReportPatch {
  title?: string;
  body?: string | null;
}

/** One announcement row (`?fields=` may project it; `?include=` adds related rows). */
export interface Announcement {
  id: number;
  title: string;
}

export interface AnnouncementList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Announcement[];
}

export interface AnnouncementInput {
  title: string;
}

export interface AnnouncementPatch {
  title?: string;
}

/** One link row (`?fields=` may project it; `?include=` adds related rows). */
export interface Link {
  id: number;
  /** foreign key; `?include=from_author` hydrates the row */
  from_author_id: number;
  /** foreign key; `?include=to_author` hydrates the row */
  to_author_id: number;
  label: string | null;
  /** The author row `from_author_id` names: present with `?include=from_author`, null when it is missing or out of sight */
  from_author?: Author | null;
  /** The author row `to_author_id` names: present with `?include=to_author`, null when it is missing or out of sight */
  to_author?: Author | null;
}

export interface LinkList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Link[];
}

export interface LinkInput {
  /** foreign key; `?include=from_author` hydrates the row */
  from_author_id: number;
  /** foreign key; `?include=to_author` hydrates the row */
  to_author_id: number;
  label?: string | null;
}

export interface LinkPatch {
  /** foreign key; `?include=from_author` hydrates the row */
  from_author_id?: number;
  /** foreign key; `?include=to_author` hydrates the row */
  to_author_id?: number;
  label?: string | null;
}

/** One list_only row (`?fields=` may project it; `?include=` adds related rows). */
export interface ListOnly {
  id: number;
  name: string;
}

export interface ListOnlyList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: ListOnly[];
}

/** One note row (`?fields=` may project it; `?include=` adds related rows). */
export interface Note {
  id: number;
  /** foreign key; `?include=owner` hydrates the row */
  owner_id: number;
  body: string;
  /** The auth_user row `owner_id` names: present with `?include=owner`, null when it is missing or out of sight */
  owner?: AuthUser | null;
}

export interface NoteList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Note[];
}

export interface NoteInput {
  body: string;
}

export interface NotePatch {
  body?: string;
}

/** One attachment row (`?fields=` may project it; `?include=` adds related rows). */
export interface Attachment {
  id: number;
  /** foreign key; `?include=post` hydrates the row */
  post_id: number;
  file: StoredFile;
  /** The post row `post_id` names: present with `?include=post`, null when it is missing or out of sight */
  post?: Post | null;
}

export interface AttachmentList {
  /** Total of matching rows */
  count: number;
  /** Absolute URL of the next page, or null */
  next: string | null;
  /** Absolute URL of the previous page, or null */
  previous: string | null;
  results: Attachment[];
}

export interface AttachmentInput {
  /** foreign key; `?include=post` hydrates the row */
  post_id: number;
}

export interface AttachmentPatch {
  /** foreign key; `?include=post` hydrates the row */
  post_id?: number;
}

/** An RFC 9457 problem document */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The stable machine code */
  code: "not_found" | "invalid_input" | "unique_violation" | "foreign_key_violation" | "still_referenced" | "not_null_violation" | "check_violation" | "database_unavailable" | "malformed_json" | "unsupported_media_type" | "payload_too_large" | "method_not_allowed" | "internal_error" | "invalid_credentials" | "not_authenticated" | "email_unverified" | "forbidden" | "csrf_failed" | "throttled" | "invalid_code" | "overloaded" | "invalid_query" | "privileged_field" | "idempotency_key_reused" | "idempotency_in_progress" | "precondition_failed" | "social_login_failed" | "storage_unavailable";
  /** The offending fields of a validation error */
  errors?: {
    field: string;
    message: string;
    /** The item of a batch */
    index?: number;
  }[];
}

/** A stored file. Upload it as a part of a multipart/form-data create, PUT or PATCH; `url` is a signed link that expires. */
export interface StoredFile {
  /** The uploaded file name, made safe (never a storage key) */
  name: string;
  /** In bytes */
  size: number;
  /** The type its bytes show (sniffed, never the client's claim) */
  content_type: string;
  /** A signed link to the file; served without credentials until it expires */
  url: string;
}

/** The problem document's stable codes. */
export type ErrorCode = Problem['code'];

/** A string, or a function answering one when a request is made (a token that changes, say). */
export type Provided = string | undefined | (() => string | undefined | Promise<string | undefined>);

export interface ClientOptions {
  /** Where the app is served, e.g. `http://127.0.0.1:3000` (the operation paths carry the REST prefix). */
  readonly baseUrl: string;
  /** A bearer token (from `POST /api/auth/login`): sent as `Authorization: Bearer <token>`. */
  readonly token?: Provided;
  /**
   * The CSRF token of a cookie session, sent as `X-CSRF-Token` on unsafe requests without a bearer
   * token. In a browser it defaults to the `portico_csrf` cookie.
   */
  readonly csrfToken?: Provided;
  /** `fetch`'s credentials mode: `include` sends the session cookie to another origin. */
  readonly credentials?: RequestInit['credentials'];
  /** Headers sent with every request (a `cookie` header for a session outside a browser, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** Options of one request. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful answer: the parsed body, the status, the `ETag` when there is one, and the headers. */
export interface Answer<T> {
  readonly data: T;
  readonly status: number;
  readonly etag: string | undefined;
  readonly headers: Headers;
}

/** A list page: `count` matching rows in all, `results` of this page, and links to the pages around it. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** An answer of 400 or more: `problem` is its RFC 9457 document (undefined when the body was not one). */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | undefined;
  readonly headers: Headers;
  constructor(status: number, problem: Problem | undefined, headers: Headers, text: string) {
    super(problem ? `${status} ${problem.code}: ${problem.detail}` : `${status}: ${text.slice(0, 200)}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
    this.headers = headers;
  }

  /** The problem's stable code, e.g. `not_found`, `invalid_input`, `precondition_failed`. */
  get code(): ErrorCode | undefined {
    return this.problem?.code;
  }
}

interface Call {
  readonly query?: object | undefined;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly options?: RequestOptions | undefined;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function provided(value: Provided): Promise<string | undefined> {
  return typeof value === 'function' ? value() : value;
}

function cookieCsrf(): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document;
  const match = /(?:^|;\s*)portico_csrf=([^;]*)/.exec(doc?.cookie ?? '');
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** A query value as the server reads it: lists comma-separated, dates in ISO form. */
function queryText(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryText).join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** A fresh `Idempotency-Key` for `idempotencyKey: true`. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function transport(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  return async function request<T>(method: string, path: string, call: Call = {}): Promise<Answer<T>> {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, queryText(value));
    const headers = new Headers({ accept: 'application/json, application/problem+json', ...options.headers, ...call.options?.headers });
    for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers.set(name, value);
    const token = await provided(options.token);
    if (token) headers.set('authorization', `Bearer ${token}`);
    else if (UNSAFE.has(method)) {
      const csrf = (await provided(options.csrfToken)) ?? cookieCsrf();
      if (csrf) headers.set('x-csrf-token', csrf);
    }
    let body: string | FormData | undefined;
    // An upload goes as multipart/form-data (fetch writes the boundary); anything else as JSON.
    if (typeof FormData !== 'undefined' && call.body instanceof FormData) body = call.body;
    else if (call.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(call.body);
    }
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (options.credentials) init.credentials = options.credentials;
    if (call.options?.signal) init.signal = call.options.signal;
    const response = await (options.fetch ?? globalThis.fetch)(url, init);
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    if (response.status >= 400) {
      const problem = /json/.test(type) && text !== '' ? (JSON.parse(text) as Problem) : undefined;
      throw new ApiError(response.status, problem, response.headers, text);
    }
    const data = (text === '' ? undefined : JSON.parse(text)) as T;
    return { data, status: response.status, etag: response.headers.get('etag') ?? undefined, headers: response.headers };
  };
}

/** The relation an `include` path adds to a row: its first hop. */
type Head<P extends string> = P extends `${infer H}.${string}` ? H : P;
/** A row read with `fields` F (none: every column) and `include` I: the columns, plus each included relation. */
export type Read<R, F extends keyof R, I extends string> = ([F] extends [never] ? R : Pick<R, F>) & { [K in Head<I> & keyof R]-?: Exclude<R[K], undefined> };

/**
 * Every row of a list, page after page: calls `page` with a growing `offset` until a page is the
 * last. Rows written meanwhile may shift the pages (order by a key for a stable walk).
 *
 * @example
 * for await (const post of paginate((w) => api.listPost({ ...w, ordering: ['id'] }))) console.log(post.title);
 */
export async function* paginate<T>(page: (window: { offset: number; limit?: number }) => Promise<Answer<Page<T>>>, limit?: number): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const { data } = await page(limit === undefined ? { offset } : { offset, limit });
    yield* data.results;
    offset += data.results.length;
    if (data.next === null || data.results.length === 0) return;
  }
}

/** `true` asks for a fresh key. */
function idempotencyKey(key: string | true | undefined): string | undefined {
  return key === true ? newIdempotencyKey() : key;
}

export interface ListAuthorQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "name" | "bio" | "email" | `-${"id" | "name" | "bio" | "email"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `name__ne`, `name__gt`, `name__gte`, `name__lt`, `name__lte`, `name__in`, `name__isnull`, `name__contains`, `name__icontains`, `name__iexact`, `name__startswith` (`in` is comma separated) */
  name?: string;
  name__ne?: string;
  name__gt?: string;
  name__gte?: string;
  name__lt?: string;
  name__lte?: string;
  name__in?: readonly string[];
  name__isnull?: boolean;
  name__contains?: string;
  name__icontains?: string;
  name__iexact?: string;
  name__startswith?: string;
  /** Equals. Lookups: `bio__ne`, `bio__gt`, `bio__gte`, `bio__lt`, `bio__lte`, `bio__in`, `bio__isnull`, `bio__contains`, `bio__icontains`, `bio__iexact`, `bio__startswith` (`in` is comma separated) */
  bio?: string;
  bio__ne?: string;
  bio__gt?: string;
  bio__gte?: string;
  bio__lt?: string;
  bio__lte?: string;
  bio__in?: readonly string[];
  bio__isnull?: boolean;
  bio__contains?: string;
  bio__icontains?: string;
  bio__iexact?: string;
  bio__startswith?: string;
  /** Equals. Lookups: `email__ne`, `email__gt`, `email__gte`, `email__lt`, `email__lte`, `email__in`, `email__isnull`, `email__contains`, `email__icontains`, `email__iexact`, `email__startswith` (`in` is comma separated) */
  email?: string;
  email__ne?: string;
  email__gt?: string;
  email__gte?: string;
  email__lt?: string;
  email__lte?: string;
  email__in?: readonly string[];
  email__isnull?: boolean;
  email__contains?: string;
  email__icontains?: string;
  email__iexact?: string;
  email__startswith?: string;
}

export interface ListPostQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "title" | "body" | "author_id" | "created_by_id" | "published" | "featured" | "score" | "created_at" | "deleted_at" | `-${"id" | "title" | "body" | "author_id" | "created_by_id" | "published" | "featured" | "score" | "created_at" | "deleted_at"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: author, created_by, tags */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `title__ne`, `title__gt`, `title__gte`, `title__lt`, `title__lte`, `title__in`, `title__isnull`, `title__contains`, `title__icontains`, `title__iexact`, `title__startswith` (`in` is comma separated) */
  title?: string;
  title__ne?: string;
  title__gt?: string;
  title__gte?: string;
  title__lt?: string;
  title__lte?: string;
  title__in?: readonly string[];
  title__isnull?: boolean;
  title__contains?: string;
  title__icontains?: string;
  title__iexact?: string;
  title__startswith?: string;
  /** Equals. Lookups: `body__ne`, `body__gt`, `body__gte`, `body__lt`, `body__lte`, `body__in`, `body__isnull`, `body__contains`, `body__icontains`, `body__iexact`, `body__startswith` (`in` is comma separated) */
  body?: string;
  body__ne?: string;
  body__gt?: string;
  body__gte?: string;
  body__lt?: string;
  body__lte?: string;
  body__in?: readonly string[];
  body__isnull?: boolean;
  body__contains?: string;
  body__icontains?: string;
  body__iexact?: string;
  body__startswith?: string;
  /** Equals. Lookups: `author_id__ne`, `author_id__gt`, `author_id__gte`, `author_id__lt`, `author_id__lte`, `author_id__in`, `author_id__isnull` (`in` is comma separated) */
  author_id?: number;
  author_id__ne?: number;
  author_id__gt?: number;
  author_id__gte?: number;
  author_id__lt?: number;
  author_id__lte?: number;
  author_id__in?: readonly number[];
  author_id__isnull?: boolean;
  /** Equals. Lookups: `created_by_id__ne`, `created_by_id__gt`, `created_by_id__gte`, `created_by_id__lt`, `created_by_id__lte`, `created_by_id__in`, `created_by_id__isnull` (`in` is comma separated) */
  created_by_id?: number;
  created_by_id__ne?: number;
  created_by_id__gt?: number;
  created_by_id__gte?: number;
  created_by_id__lt?: number;
  created_by_id__lte?: number;
  created_by_id__in?: readonly number[];
  created_by_id__isnull?: boolean;
  /** Equals. Lookups: `published__ne`, `published__gt`, `published__gte`, `published__lt`, `published__lte`, `published__in`, `published__isnull` (`in` is comma separated) */
  published?: boolean;
  published__ne?: boolean;
  published__gt?: boolean;
  published__gte?: boolean;
  published__lt?: boolean;
  published__lte?: boolean;
  published__in?: readonly boolean[];
  published__isnull?: boolean;
  /** Equals. Lookups: `featured__ne`, `featured__gt`, `featured__gte`, `featured__lt`, `featured__lte`, `featured__in`, `featured__isnull` (`in` is comma separated) */
  featured?: boolean;
  featured__ne?: boolean;
  featured__gt?: boolean;
  featured__gte?: boolean;
  featured__lt?: boolean;
  featured__lte?: boolean;
  featured__in?: readonly boolean[];
  featured__isnull?: boolean;
  /** Equals. Lookups: `score__ne`, `score__gt`, `score__gte`, `score__lt`, `score__lte`, `score__in`, `score__isnull` (`in` is comma separated) */
  score?: number;
  score__ne?: number;
  score__gt?: number;
  score__gte?: number;
  score__lt?: number;
  score__lte?: number;
  score__in?: readonly number[];
  score__isnull?: boolean;
  /** Equals. Lookups: `created_at__ne`, `created_at__gt`, `created_at__gte`, `created_at__lt`, `created_at__lte`, `created_at__in`, `created_at__isnull` (`in` is comma separated) */
  created_at?: string | Date;
  created_at__ne?: string | Date;
  created_at__gt?: string | Date;
  created_at__gte?: string | Date;
  created_at__lt?: string | Date;
  created_at__lte?: string | Date;
  created_at__in?: readonly (string | Date)[];
  created_at__isnull?: boolean;
  /** Equals. Lookups: `deleted_at__ne`, `deleted_at__gt`, `deleted_at__gte`, `deleted_at__lt`, `deleted_at__lte`, `deleted_at__in`, `deleted_at__isnull` (`in` is comma separated) */
  deleted_at?: string | Date;
  deleted_at__ne?: string | Date;
  deleted_at__gt?: string | Date;
  deleted_at__gte?: string | Date;
  deleted_at__lt?: string | Date;
  deleted_at__lte?: string | Date;
  deleted_at__in?: readonly (string | Date)[];
  deleted_at__isnull?: boolean;
}

export interface RetrievePostQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: author, created_by, tags */
  include?: readonly I[];
}

export interface ListCommentQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "post_id" | "body" | "votes" | `-${"id" | "post_id" | "body" | "votes"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: post, post.author, post.created_by, post.tags */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `post_id__ne`, `post_id__gt`, `post_id__gte`, `post_id__lt`, `post_id__lte`, `post_id__in`, `post_id__isnull` (`in` is comma separated) */
  post_id?: number;
  post_id__ne?: number;
  post_id__gt?: number;
  post_id__gte?: number;
  post_id__lt?: number;
  post_id__lte?: number;
  post_id__in?: readonly number[];
  post_id__isnull?: boolean;
  /** Equals. Lookups: `body__ne`, `body__gt`, `body__gte`, `body__lt`, `body__lte`, `body__in`, `body__isnull`, `body__contains`, `body__icontains`, `body__iexact`, `body__startswith` (`in` is comma separated) */
  body?: string;
  body__ne?: string;
  body__gt?: string;
  body__gte?: string;
  body__lt?: string;
  body__lte?: string;
  body__in?: readonly string[];
  body__isnull?: boolean;
  body__contains?: string;
  body__icontains?: string;
  body__iexact?: string;
  body__startswith?: string;
  /** Equals. Lookups: `votes__ne`, `votes__gt`, `votes__gte`, `votes__lt`, `votes__lte`, `votes__in`, `votes__isnull` (`in` is comma separated) */
  votes?: number;
  votes__ne?: number;
  votes__gt?: number;
  votes__gte?: number;
  votes__lt?: number;
  votes__lte?: number;
  votes__in?: readonly number[];
  votes__isnull?: boolean;
}

export interface RetrieveCommentQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: post, post.author, post.created_by, post.tags */
  include?: readonly I[];
}

export interface ListReplyQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "comment_id" | "body" | `-${"id" | "comment_id" | "body"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: comment, comment.post, comment.post.author, comment.post.created_by, comment.post.tags */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `comment_id__ne`, `comment_id__gt`, `comment_id__gte`, `comment_id__lt`, `comment_id__lte`, `comment_id__in`, `comment_id__isnull` (`in` is comma separated) */
  comment_id?: number;
  comment_id__ne?: number;
  comment_id__gt?: number;
  comment_id__gte?: number;
  comment_id__lt?: number;
  comment_id__lte?: number;
  comment_id__in?: readonly number[];
  comment_id__isnull?: boolean;
  /** Equals. Lookups: `body__ne`, `body__gt`, `body__gte`, `body__lt`, `body__lte`, `body__in`, `body__isnull`, `body__contains`, `body__icontains`, `body__iexact`, `body__startswith` (`in` is comma separated) */
  body?: string;
  body__ne?: string;
  body__gt?: string;
  body__gte?: string;
  body__lt?: string;
  body__lte?: string;
  body__in?: readonly string[];
  body__isnull?: boolean;
  body__contains?: string;
  body__icontains?: string;
  body__iexact?: string;
  body__startswith?: string;
}

export interface RetrieveReplyQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: comment, comment.post, comment.post.author, comment.post.created_by, comment.post.tags */
  include?: readonly I[];
}

export interface ListTagQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "label" | `-${"id" | "label"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull`, `id__contains`, `id__icontains`, `id__iexact`, `id__startswith` (`in` is comma separated) */
  id?: string;
  id__ne?: string;
  id__gt?: string;
  id__gte?: string;
  id__lt?: string;
  id__lte?: string;
  id__in?: readonly string[];
  id__isnull?: boolean;
  id__contains?: string;
  id__icontains?: string;
  id__iexact?: string;
  id__startswith?: string;
  /** Equals. Lookups: `label__ne`, `label__gt`, `label__gte`, `label__lt`, `label__lte`, `label__in`, `label__isnull`, `label__contains`, `label__icontains`, `label__iexact`, `label__startswith` (`in` is comma separated) */
  label?: string;
  label__ne?: string;
  label__gt?: string;
  label__gte?: string;
  label__lt?: string;
  label__lte?: string;
  label__in?: readonly string[];
  label__isnull?: boolean;
  label__contains?: string;
  label__icontains?: string;
  label__iexact?: string;
  label__startswith?: string;
}

export interface ListTicketQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "title" | `-${"id" | "title"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: string;
  id__ne?: string;
  id__gt?: string;
  id__gte?: string;
  id__lt?: string;
  id__lte?: string;
  id__in?: readonly string[];
  id__isnull?: boolean;
  /** Equals. Lookups: `title__ne`, `title__gt`, `title__gte`, `title__lt`, `title__lte`, `title__in`, `title__isnull`, `title__contains`, `title__icontains`, `title__iexact`, `title__startswith` (`in` is comma separated) */
  title?: string;
  title__ne?: string;
  title__gt?: string;
  title__gte?: string;
  title__lt?: string;
  title__lte?: string;
  title__in?: readonly string[];
  title__isnull?: boolean;
  title__contains?: string;
  title__icontains?: string;
  title__iexact?: string;
  title__startswith?: string;
}

export interface ListShopOrderQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "customer" | "created_at" | `-${"id" | "customer" | "created_at"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `customer__ne`, `customer__gt`, `customer__gte`, `customer__lt`, `customer__lte`, `customer__in`, `customer__isnull`, `customer__contains`, `customer__icontains`, `customer__iexact`, `customer__startswith` (`in` is comma separated) */
  customer?: string;
  customer__ne?: string;
  customer__gt?: string;
  customer__gte?: string;
  customer__lt?: string;
  customer__lte?: string;
  customer__in?: readonly string[];
  customer__isnull?: boolean;
  customer__contains?: string;
  customer__icontains?: string;
  customer__iexact?: string;
  customer__startswith?: string;
  /** Equals. Lookups: `created_at__ne`, `created_at__gt`, `created_at__gte`, `created_at__lt`, `created_at__lte`, `created_at__in`, `created_at__isnull` (`in` is comma separated) */
  created_at?: string | Date;
  created_at__ne?: string | Date;
  created_at__gt?: string | Date;
  created_at__gte?: string | Date;
  created_at__lt?: string | Date;
  created_at__lte?: string | Date;
  created_at__in?: readonly (string | Date)[];
  created_at__isnull?: boolean;
}

export interface ListOrderItemQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "order_id" | "sku" | "qty" | `-${"id" | "order_id" | "sku" | "qty"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: order */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `order_id__ne`, `order_id__gt`, `order_id__gte`, `order_id__lt`, `order_id__lte`, `order_id__in`, `order_id__isnull` (`in` is comma separated) */
  order_id?: number;
  order_id__ne?: number;
  order_id__gt?: number;
  order_id__gte?: number;
  order_id__lt?: number;
  order_id__lte?: number;
  order_id__in?: readonly number[];
  order_id__isnull?: boolean;
  /** Equals. Lookups: `sku__ne`, `sku__gt`, `sku__gte`, `sku__lt`, `sku__lte`, `sku__in`, `sku__isnull`, `sku__contains`, `sku__icontains`, `sku__iexact`, `sku__startswith` (`in` is comma separated) */
  sku?: string;
  sku__ne?: string;
  sku__gt?: string;
  sku__gte?: string;
  sku__lt?: string;
  sku__lte?: string;
  sku__in?: readonly string[];
  sku__isnull?: boolean;
  sku__contains?: string;
  sku__icontains?: string;
  sku__iexact?: string;
  sku__startswith?: string;
  /** Equals. Lookups: `qty__ne`, `qty__gt`, `qty__gte`, `qty__lt`, `qty__lte`, `qty__in`, `qty__isnull` (`in` is comma separated) */
  qty?: number;
  qty__ne?: number;
  qty__gt?: number;
  qty__gte?: number;
  qty__lt?: number;
  qty__lte?: number;
  qty__in?: readonly number[];
  qty__isnull?: boolean;
}

export interface RetrieveOrderItemQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: order */
  include?: readonly I[];
}

export interface ListItemPartQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "item_id" | "name" | `-${"id" | "item_id" | "name"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: item, item.order */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `item_id__ne`, `item_id__gt`, `item_id__gte`, `item_id__lt`, `item_id__lte`, `item_id__in`, `item_id__isnull` (`in` is comma separated) */
  item_id?: number;
  item_id__ne?: number;
  item_id__gt?: number;
  item_id__gte?: number;
  item_id__lt?: number;
  item_id__lte?: number;
  item_id__in?: readonly number[];
  item_id__isnull?: boolean;
  /** Equals. Lookups: `name__ne`, `name__gt`, `name__gte`, `name__lt`, `name__lte`, `name__in`, `name__isnull`, `name__contains`, `name__icontains`, `name__iexact`, `name__startswith` (`in` is comma separated) */
  name?: string;
  name__ne?: string;
  name__gt?: string;
  name__gte?: string;
  name__lt?: string;
  name__lte?: string;
  name__in?: readonly string[];
  name__isnull?: boolean;
  name__contains?: string;
  name__icontains?: string;
  name__iexact?: string;
  name__startswith?: string;
}

export interface RetrieveItemPartQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: item, item.order */
  include?: readonly I[];
}

export interface ListProjectQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "name" | `-${"id" | "name"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `name__ne`, `name__gt`, `name__gte`, `name__lt`, `name__lte`, `name__in`, `name__isnull`, `name__contains`, `name__icontains`, `name__iexact`, `name__startswith` (`in` is comma separated) */
  name?: string;
  name__ne?: string;
  name__gt?: string;
  name__gte?: string;
  name__lt?: string;
  name__lte?: string;
  name__in?: readonly string[];
  name__isnull?: boolean;
  name__contains?: string;
  name__icontains?: string;
  name__iexact?: string;
  name__startswith?: string;
}

export interface ListMilestoneQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "project_id" | "title" | "due" | `-${"id" | "project_id" | "title" | "due"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: project */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `project_id__ne`, `project_id__gt`, `project_id__gte`, `project_id__lt`, `project_id__lte`, `project_id__in`, `project_id__isnull` (`in` is comma separated) */
  project_id?: number;
  project_id__ne?: number;
  project_id__gt?: number;
  project_id__gte?: number;
  project_id__lt?: number;
  project_id__lte?: number;
  project_id__in?: readonly number[];
  project_id__isnull?: boolean;
  /** Equals. Lookups: `title__ne`, `title__gt`, `title__gte`, `title__lt`, `title__lte`, `title__in`, `title__isnull`, `title__contains`, `title__icontains`, `title__iexact`, `title__startswith` (`in` is comma separated) */
  title?: string;
  title__ne?: string;
  title__gt?: string;
  title__gte?: string;
  title__lt?: string;
  title__lte?: string;
  title__in?: readonly string[];
  title__isnull?: boolean;
  title__contains?: string;
  title__icontains?: string;
  title__iexact?: string;
  title__startswith?: string;
  /** Equals. Lookups: `due__ne`, `due__gt`, `due__gte`, `due__lt`, `due__lte`, `due__in`, `due__isnull` (`in` is comma separated) */
  due?: string;
  due__ne?: string;
  due__gt?: string;
  due__gte?: string;
  due__lt?: string;
  due__lte?: string;
  due__in?: readonly string[];
  due__isnull?: boolean;
}

export interface RetrieveMilestoneQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: project */
  include?: readonly I[];
}

export interface ListMemberQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "username" | "nickname" | `-${"id" | "username" | "nickname"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `username__ne`, `username__gt`, `username__gte`, `username__lt`, `username__lte`, `username__in`, `username__isnull`, `username__contains`, `username__icontains`, `username__iexact`, `username__startswith` (`in` is comma separated) */
  username?: string;
  username__ne?: string;
  username__gt?: string;
  username__gte?: string;
  username__lt?: string;
  username__lte?: string;
  username__in?: readonly string[];
  username__isnull?: boolean;
  username__contains?: string;
  username__icontains?: string;
  username__iexact?: string;
  username__startswith?: string;
  /** Equals. Lookups: `nickname__ne`, `nickname__gt`, `nickname__gte`, `nickname__lt`, `nickname__lte`, `nickname__in`, `nickname__isnull`, `nickname__contains`, `nickname__icontains`, `nickname__iexact`, `nickname__startswith` (`in` is comma separated) */
  nickname?: string;
  nickname__ne?: string;
  nickname__gt?: string;
  nickname__gte?: string;
  nickname__lt?: string;
  nickname__lte?: string;
  nickname__in?: readonly string[];
  nickname__isnull?: boolean;
  nickname__contains?: string;
  nickname__icontains?: string;
  nickname__iexact?: string;
  nickname__startswith?: string;
}

export interface ListStaffReportQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "title" | "body" | `-${"id" | "title" | "body"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `title__ne`, `title__gt`, `title__gte`, `title__lt`, `title__lte`, `title__in`, `title__isnull`, `title__contains`, `title__icontains`, `title__iexact`, `title__startswith` (`in` is comma separated) */
  title?: string;
  title__ne?: string;
  title__gt?: string;
  title__gte?: string;
  title__lt?: string;
  title__lte?: string;
  title__in?: readonly string[];
  title__isnull?: boolean;
  title__contains?: string;
  title__icontains?: string;
  title__iexact?: string;
  title__startswith?: string;
  /** Equals. Lookups: `body__ne`, `body__gt`, `body__gte`, `body__lt`, `body__lte`, `body__in`, `body__isnull`, `body__contains`, `body__icontains`, `body__iexact`, `body__startswith` (`in` is comma separated) */
  body?: string;
  body__ne?: string;
  body__gt?: string;
  body__gte?: string;
  body__lt?: string;
  body__lte?: string;
  body__in?: readonly string[];
  body__isnull?: boolean;
  body__contains?: string;
  body__icontains?: string;
  body__iexact?: string;
  body__startswith?: string;
}

export interface ListAnnouncementQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "title" | `-${"id" | "title"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `title__ne`, `title__gt`, `title__gte`, `title__lt`, `title__lte`, `title__in`, `title__isnull`, `title__contains`, `title__icontains`, `title__iexact`, `title__startswith` (`in` is comma separated) */
  title?: string;
  title__ne?: string;
  title__gt?: string;
  title__gte?: string;
  title__lt?: string;
  title__lte?: string;
  title__in?: readonly string[];
  title__isnull?: boolean;
  title__contains?: string;
  title__icontains?: string;
  title__iexact?: string;
  title__startswith?: string;
}

export interface ListLinkQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "from_author_id" | "to_author_id" | "label" | `-${"id" | "from_author_id" | "to_author_id" | "label"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: from_author, to_author */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `from_author_id__ne`, `from_author_id__gt`, `from_author_id__gte`, `from_author_id__lt`, `from_author_id__lte`, `from_author_id__in`, `from_author_id__isnull` (`in` is comma separated) */
  from_author_id?: number;
  from_author_id__ne?: number;
  from_author_id__gt?: number;
  from_author_id__gte?: number;
  from_author_id__lt?: number;
  from_author_id__lte?: number;
  from_author_id__in?: readonly number[];
  from_author_id__isnull?: boolean;
  /** Equals. Lookups: `to_author_id__ne`, `to_author_id__gt`, `to_author_id__gte`, `to_author_id__lt`, `to_author_id__lte`, `to_author_id__in`, `to_author_id__isnull` (`in` is comma separated) */
  to_author_id?: number;
  to_author_id__ne?: number;
  to_author_id__gt?: number;
  to_author_id__gte?: number;
  to_author_id__lt?: number;
  to_author_id__lte?: number;
  to_author_id__in?: readonly number[];
  to_author_id__isnull?: boolean;
  /** Equals. Lookups: `label__ne`, `label__gt`, `label__gte`, `label__lt`, `label__lte`, `label__in`, `label__isnull`, `label__contains`, `label__icontains`, `label__iexact`, `label__startswith` (`in` is comma separated) */
  label?: string;
  label__ne?: string;
  label__gt?: string;
  label__gte?: string;
  label__lt?: string;
  label__lte?: string;
  label__in?: readonly string[];
  label__isnull?: boolean;
  label__contains?: string;
  label__icontains?: string;
  label__iexact?: string;
  label__startswith?: string;
}

export interface RetrieveLinkQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: from_author, to_author */
  include?: readonly I[];
}

export interface ListListOnlyQuery<F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "name" | `-${"id" | "name"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `name__ne`, `name__gt`, `name__gte`, `name__lt`, `name__lte`, `name__in`, `name__isnull`, `name__contains`, `name__icontains`, `name__iexact`, `name__startswith` (`in` is comma separated) */
  name?: string;
  name__ne?: string;
  name__gt?: string;
  name__gte?: string;
  name__lt?: string;
  name__lte?: string;
  name__in?: readonly string[];
  name__isnull?: boolean;
  name__contains?: string;
  name__icontains?: string;
  name__iexact?: string;
  name__startswith?: string;
}

export interface ListNoteQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "owner_id" | "body" | `-${"id" | "owner_id" | "body"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: owner */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `owner_id__ne`, `owner_id__gt`, `owner_id__gte`, `owner_id__lt`, `owner_id__lte`, `owner_id__in`, `owner_id__isnull` (`in` is comma separated) */
  owner_id?: number;
  owner_id__ne?: number;
  owner_id__gt?: number;
  owner_id__gte?: number;
  owner_id__lt?: number;
  owner_id__lte?: number;
  owner_id__in?: readonly number[];
  owner_id__isnull?: boolean;
  /** Equals. Lookups: `body__ne`, `body__gt`, `body__gte`, `body__lt`, `body__lte`, `body__in`, `body__isnull`, `body__contains`, `body__icontains`, `body__iexact`, `body__startswith` (`in` is comma separated) */
  body?: string;
  body__ne?: string;
  body__gt?: string;
  body__gte?: string;
  body__lt?: string;
  body__lte?: string;
  body__in?: readonly string[];
  body__isnull?: boolean;
  body__contains?: string;
  body__icontains?: string;
  body__iexact?: string;
  body__startswith?: string;
}

export interface RetrieveNoteQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: owner */
  include?: readonly I[];
}

export interface ListAttachmentQuery<I extends string = never, F extends string = never> {
  /** Page size (default 100; larger values are clamped to 1000) */
  limit?: number;
  /** Rows to skip */
  offset?: number;
  /** Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key */
  ordering?: readonly ("id" | "post_id" | `-${"id" | "post_id"}`)[];
  /** Case-insensitive substring over the visible text columns */
  search?: string;
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: post, post.author, post.created_by, post.tags */
  include?: readonly I[];
  /** Comma-separated visible columns to return */
  fields?: readonly F[];
  /** Equals. Lookups: `id__ne`, `id__gt`, `id__gte`, `id__lt`, `id__lte`, `id__in`, `id__isnull` (`in` is comma separated) */
  id?: number;
  id__ne?: number;
  id__gt?: number;
  id__gte?: number;
  id__lt?: number;
  id__lte?: number;
  id__in?: readonly number[];
  id__isnull?: boolean;
  /** Equals. Lookups: `post_id__ne`, `post_id__gt`, `post_id__gte`, `post_id__lt`, `post_id__lte`, `post_id__in`, `post_id__isnull` (`in` is comma separated) */
  post_id?: number;
  post_id__ne?: number;
  post_id__gt?: number;
  post_id__gte?: number;
  post_id__lt?: number;
  post_id__lte?: number;
  post_id__in?: readonly number[];
  post_id__isnull?: boolean;
}

export interface RetrieveAttachmentQuery<I extends string = never> {
  /** Comma-separated relations to hydrate, dotted paths up to 3 hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: post, post.author, post.created_by, post.tags */
  include?: readonly I[];
}

/**
 * A client of the API: one function per operation. A 2xx answer resolves to `{ data, status, etag, headers }`;
 * any other rejects with an `ApiError` carrying the problem document.
 *
 * @example
 * const api = createClient({ baseUrl: 'http://127.0.0.1:3000', token });
 */
export function createClient(clientOptions: ClientOptions) {
  const request = transport(clientOptions);
  /**
   * List author rows
   *
   * Answers a page of the author rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listAuthor<F extends "id" | "name" | "bio" | "email" = never>(query?: ListAuthorQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Author, F, never>>>> {
    return request("GET", `/api/author`, { query, options });
  }

  /**
   * Create one author row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `links` write child rows in the same transaction (SPEC "Nested writes").
   */
  function createAuthor(body: AuthorInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Author>> {
    return request("POST", `/api/author`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one author row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveAuthor(id: number, options?: RequestOptions): Promise<Answer<Author>> {
    return request("GET", `/api/author/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one author row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `links` write child rows in the same transaction (SPEC "Nested writes").
   */
  function updateAuthor(id: number, body: AuthorInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Author>> {
    return request("PUT", `/api/author/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one author row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `links` write child rows in the same transaction (SPEC "Nested writes").
   */
  function partialUpdateAuthor(id: number, body: AuthorPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Author>> {
    return request("PATCH", `/api/author/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one author row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteAuthor(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/author/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List post rows
   *
   * Answers a page of the post rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listPost<I extends "author" | "created_by" | "tags" = never, F extends "id" | "title" | "body" | "author_id" | "created_by_id" | "published" | "featured" | "score" | "created_at" | "deleted_at" = never>(query?: ListPostQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Post, F, I>>>> {
    return request("GET", `/api/post`, { query, options });
  }

  /**
   * Create one or several post rows
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `created_by_id`. Arrays under `comments` write child rows in the same transaction (SPEC "Nested writes"). An array of keys under `tags` replaces the row's many-to-many links in the same transaction and is echoed in the answer. A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index (batch items carry no many-to-many links).
   */
  function createPost(body: PostInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Post>>;
  function createPost(body: PostBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Post[]>>;
  function createPost(body: PostInput | PostBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Post | Post[]>> {
    return request("POST", `/api/post`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change several post rows
   *
   * Each item names a row by its key (`id`) plus the columns to change, and optionally the version it changes (`_version`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale `_version` 412, each naming the item's index. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `created_by_id`.
   */
  function bulkUpdatePost(body: PostBulkPatchItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Post[]>> {
    return request("PATCH", `/api/post`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete several post rows
   *
   * Deletes the rows whose keys are in `ids` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409. The row is soft-deleted: `deleted_at` is stamped and it leaves the live API.
   */
  function bulkDeletePost(body: {
    ids: number[];
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/post`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one post row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrievePost<I extends "author" | "created_by" | "tags" = never>(id: number, query?: RetrievePostQuery<I>, options?: RequestOptions): Promise<Answer<Read<Post, never, I>>> {
    return request("GET", `/api/post/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one post row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `created_by_id`. Arrays under `comments` write child rows in the same transaction (SPEC "Nested writes"). An array of keys under `tags` replaces the row's many-to-many links in the same transaction and is echoed in the answer.
   */
  function updatePost(id: number, body: PostReplace, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Post>> {
    return request("PUT", `/api/post/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one post row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `created_by_id`. Arrays under `comments` write child rows in the same transaction (SPEC "Nested writes"). An array of keys under `tags` replaces the row's many-to-many links in the same transaction and is echoed in the answer.
   */
  function partialUpdatePost(id: number, body: PostPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Post>> {
    return request("PATCH", `/api/post/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one post row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412). The row is soft-deleted: `deleted_at` is stamped and it leaves the live API.
   */
  function deletePost(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/post/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Publish a post
   *
   * Custom detail action `publish` of post. The body is checked against the input schema before the handler runs (400 naming the offending field). A key that names no visible row answers 404.
   */
  function publishPost(id: number, body: {
    reason: string;
    channel?: "web" | "email";
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Post>> {
    return request("POST", `/api/post/${encodeURIComponent(String(id))}/publish`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * The latest published posts
   *
   * Custom list action `recent` of post.
   */
  function recentPost(options?: RequestOptions): Promise<Answer<Post[]>> {
    return request("GET", `/api/post/recent`, { options });
  }

  /**
   * Mail the post to the caller as a JSON attachment
   *
   * Custom detail action `export` of post. A key that names no visible row answers 404.
   */
  function exportPost(id: number, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<{
  status: "accepted";
}>> {
    return request("POST", `/api/post/${encodeURIComponent(String(id))}/export`, { headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List comment rows
   *
   * Answers a page of the comment rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listComment<I extends "post" | "post.author" | "post.created_by" | "post.tags" = never, F extends "id" | "post_id" | "body" | "votes" = never>(query?: ListCommentQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Comment, F, I>>>> {
    return request("GET", `/api/comment`, { query, options });
  }

  /**
   * Create one comment row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `replies` write child rows in the same transaction (SPEC "Nested writes").
   */
  function createComment(body: CommentInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Comment>> {
    return request("POST", `/api/comment`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one comment row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveComment<I extends "post" | "post.author" | "post.created_by" | "post.tags" = never>(id: number, query?: RetrieveCommentQuery<I>, options?: RequestOptions): Promise<Answer<Read<Comment, never, I>>> {
    return request("GET", `/api/comment/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one comment row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `replies` write child rows in the same transaction (SPEC "Nested writes").
   */
  function updateComment(id: number, body: CommentReplace, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Comment>> {
    return request("PUT", `/api/comment/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one comment row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `replies` write child rows in the same transaction (SPEC "Nested writes").
   */
  function partialUpdateComment(id: number, body: CommentPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Comment>> {
    return request("PATCH", `/api/comment/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one comment row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteComment(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/comment/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List reply rows
   *
   * Answers a page of the reply rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listReply<I extends "comment" | "comment.post" | "comment.post.author" | "comment.post.created_by" | "comment.post.tags" = never, F extends "id" | "comment_id" | "body" = never>(query?: ListReplyQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Reply, F, I>>>> {
    return request("GET", `/api/reply`, { query, options });
  }

  /**
   * Create one reply row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createReply(body: ReplyInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Reply>> {
    return request("POST", `/api/reply`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one reply row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveReply<I extends "comment" | "comment.post" | "comment.post.author" | "comment.post.created_by" | "comment.post.tags" = never>(id: number, query?: RetrieveReplyQuery<I>, options?: RequestOptions): Promise<Answer<Read<Reply, never, I>>> {
    return request("GET", `/api/reply/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one reply row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateReply(id: number, body: ReplyInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Reply>> {
    return request("PUT", `/api/reply/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one reply row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateReply(id: number, body: ReplyPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Reply>> {
    return request("PATCH", `/api/reply/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one reply row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteReply(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/reply/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List tag rows
   *
   * Answers a page of the tag rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listTag<F extends "id" | "label" = never>(query?: ListTagQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Tag, F, never>>>> {
    return request("GET", `/api/tag`, { query, options });
  }

  /**
   * Create one or several tag rows
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index.
   */
  function createTag(body: TagInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Tag>>;
  function createTag(body: TagInput[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Tag[]>>;
  function createTag(body: TagInput | TagInput[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Tag | Tag[]>> {
    return request("POST", `/api/tag`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change several tag rows
   *
   * Each item names a row by its key (`id`) plus the columns to change, and optionally the version it changes (`_version`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale `_version` 412, each naming the item's index. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function bulkUpdateTag(body: TagBulkPatchItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Tag[]>> {
    return request("PATCH", `/api/tag`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete several tag rows
   *
   * Deletes the rows whose keys are in `ids` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409.
   */
  function bulkDeleteTag(body: {
    ids: string[];
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/tag`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one tag row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveTag(id: string, options?: RequestOptions): Promise<Answer<Tag>> {
    return request("GET", `/api/tag/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one tag row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateTag(id: string, body: TagReplace, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Tag>> {
    return request("PUT", `/api/tag/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one tag row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateTag(id: string, body: TagPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Tag>> {
    return request("PATCH", `/api/tag/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one tag row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteTag(id: string, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/tag/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List ticket rows
   *
   * Answers a page of the ticket rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listTicket<F extends "id" | "title" = never>(query?: ListTicketQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Ticket, F, never>>>> {
    return request("GET", `/api/ticket`, { query, options });
  }

  /**
   * Retrieve one ticket row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveTicket(id: string, options?: RequestOptions): Promise<Answer<Ticket>> {
    return request("GET", `/api/ticket/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * List shop_order rows
   *
   * Answers a page of the shop_order rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listShopOrder<F extends "id" | "customer" | "created_at" = never>(query?: ListShopOrderQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<ShopOrder, F, never>>>> {
    return request("GET", `/api/shop_order`, { query, options });
  }

  /**
   * Create one or several shop_order rows
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `items` write child rows in the same transaction (SPEC "Nested writes"). A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index.
   */
  function createShopOrder(body: ShopOrderInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder>>;
  function createShopOrder(body: ShopOrderBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder[]>>;
  function createShopOrder(body: ShopOrderInput | ShopOrderBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder | ShopOrder[]>> {
    return request("POST", `/api/shop_order`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change several shop_order rows
   *
   * Each item names a row by its key (`id`) plus the columns to change, and optionally the version it changes (`_version`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale `_version` 412, each naming the item's index. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function bulkUpdateShopOrder(body: ShopOrderBulkPatchItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder[]>> {
    return request("PATCH", `/api/shop_order`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete several shop_order rows
   *
   * Deletes the rows whose keys are in `ids` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409.
   */
  function bulkDeleteShopOrder(body: {
    ids: number[];
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/shop_order`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one shop_order row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveShopOrder(id: number, options?: RequestOptions): Promise<Answer<ShopOrder>> {
    return request("GET", `/api/shop_order/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one shop_order row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `items` write child rows in the same transaction (SPEC "Nested writes").
   */
  function updateShopOrder(id: number, body: ShopOrderReplace, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder>> {
    return request("PUT", `/api/shop_order/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one shop_order row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `items` write child rows in the same transaction (SPEC "Nested writes").
   */
  function partialUpdateShopOrder(id: number, body: ShopOrderPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<ShopOrder>> {
    return request("PATCH", `/api/shop_order/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one shop_order row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteShopOrder(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/shop_order/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List order_item rows
   *
   * Answers a page of the order_item rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listOrderItem<I extends "order" = never, F extends "id" | "order_id" | "sku" | "qty" = never>(query?: ListOrderItemQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<OrderItem, F, I>>>> {
    return request("GET", `/api/order_item`, { query, options });
  }

  /**
   * Create one or several order_item rows
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `parts` write child rows in the same transaction (SPEC "Nested writes"). A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index.
   */
  function createOrderItem(body: OrderItemInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem>>;
  function createOrderItem(body: OrderItemBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem[]>>;
  function createOrderItem(body: OrderItemInput | OrderItemBulkItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem | OrderItem[]>> {
    return request("POST", `/api/order_item`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change several order_item rows
   *
   * Each item names a row by its key (`id`) plus the columns to change, and optionally the version it changes (`_version`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale `_version` 412, each naming the item's index. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function bulkUpdateOrderItem(body: OrderItemBulkPatchItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem[]>> {
    return request("PATCH", `/api/order_item`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete several order_item rows
   *
   * Deletes the rows whose keys are in `ids` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409.
   */
  function bulkDeleteOrderItem(body: {
    ids: number[];
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/order_item`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one order_item row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveOrderItem<I extends "order" = never>(id: number, query?: RetrieveOrderItemQuery<I>, options?: RequestOptions): Promise<Answer<Read<OrderItem, never, I>>> {
    return request("GET", `/api/order_item/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one order_item row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `parts` write child rows in the same transaction (SPEC "Nested writes").
   */
  function updateOrderItem(id: number, body: OrderItemReplace, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem>> {
    return request("PUT", `/api/order_item/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one order_item row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Arrays under `parts` write child rows in the same transaction (SPEC "Nested writes").
   */
  function partialUpdateOrderItem(id: number, body: OrderItemPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<OrderItem>> {
    return request("PATCH", `/api/order_item/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one order_item row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteOrderItem(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/order_item/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List item_part rows
   *
   * Answers a page of the item_part rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listItemPart<I extends "item" | "item.order" = never, F extends "id" | "item_id" | "name" = never>(query?: ListItemPartQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<ItemPart, F, I>>>> {
    return request("GET", `/api/item_part`, { query, options });
  }

  /**
   * Create one item_part row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createItemPart(body: ItemPartInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<ItemPart>> {
    return request("POST", `/api/item_part`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one item_part row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveItemPart<I extends "item" | "item.order" = never>(id: number, query?: RetrieveItemPartQuery<I>, options?: RequestOptions): Promise<Answer<Read<ItemPart, never, I>>> {
    return request("GET", `/api/item_part/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one item_part row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateItemPart(id: number, body: ItemPartInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<ItemPart>> {
    return request("PUT", `/api/item_part/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one item_part row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateItemPart(id: number, body: ItemPartPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<ItemPart>> {
    return request("PATCH", `/api/item_part/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one item_part row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteItemPart(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/item_part/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List project rows
   *
   * Answers a page of the project rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listProject<F extends "id" | "name" = never>(query?: ListProjectQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Project, F, never>>>> {
    return request("GET", `/api/project`, { query, options });
  }

  /**
   * Create one project row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createProject(body: ProjectInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Project>> {
    return request("POST", `/api/project`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one project row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveProject(id: number, options?: RequestOptions): Promise<Answer<Project>> {
    return request("GET", `/api/project/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one project row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateProject(id: number, body: ProjectInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Project>> {
    return request("PUT", `/api/project/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one project row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateProject(id: number, body: ProjectPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Project>> {
    return request("PATCH", `/api/project/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one project row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteProject(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/project/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List milestone rows
   *
   * Answers a page of the milestone rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function listMilestone<I extends "project" = never, F extends "id" | "project_id" | "title" | "due" = never>(parentId: number, query?: ListMilestoneQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Milestone, F, I>>>> {
    return request("GET", `/api/project/${encodeURIComponent(String(parentId))}/milestone`, { query, options });
  }

  /**
   * Create one or several milestone rows
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. `project_id` comes from the URL; a body naming it answers 400. A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index.
   */
  function createMilestone(parentId: number, body: MilestoneInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Milestone>>;
  function createMilestone(parentId: number, body: MilestoneInput[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Milestone[]>>;
  function createMilestone(parentId: number, body: MilestoneInput | MilestoneInput[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Milestone | Milestone[]>> {
    return request("POST", `/api/project/${encodeURIComponent(String(parentId))}/milestone`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change several milestone rows
   *
   * Each item names a row by its key (`id`) plus the columns to change, and optionally the version it changes (`_version`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale `_version` 412, each naming the item's index. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function bulkUpdateMilestone(parentId: number, body: MilestoneBulkPatchItem[], options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Milestone[]>> {
    return request("PATCH", `/api/project/${encodeURIComponent(String(parentId))}/milestone`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete several milestone rows
   *
   * Deletes the rows whose keys are in `ids` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function bulkDeleteMilestone(parentId: number, body: {
    ids: number[];
  }, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/project/${encodeURIComponent(String(parentId))}/milestone`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one milestone row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function retrieveMilestone<I extends "project" = never>(parentId: number, id: number, query?: RetrieveMilestoneQuery<I>, options?: RequestOptions): Promise<Answer<Read<Milestone, never, I>>> {
    return request("GET", `/api/project/${encodeURIComponent(String(parentId))}/milestone/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one milestone row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. `project_id` comes from the URL; a body naming it answers 400. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function updateMilestone(parentId: number, id: number, body: MilestoneInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Milestone>> {
    return request("PUT", `/api/project/${encodeURIComponent(String(parentId))}/milestone/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one milestone row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted. `project_id` comes from the URL; a body naming it answers 400. Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function partialUpdateMilestone(parentId: number, id: number, body: MilestonePatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Milestone>> {
    return request("PATCH", `/api/project/${encodeURIComponent(String(parentId))}/milestone/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one milestone row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412). Scoped to the project named by `parent_id`: a missing parent answers 404.
   */
  function deleteMilestone(parentId: number, id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/project/${encodeURIComponent(String(parentId))}/milestone/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List member rows
   *
   * Answers a page of the member rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listMember<F extends "id" | "username" | "nickname" = never>(query?: ListMemberQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Member, F, never>>>> {
    return request("GET", `/api/member`, { query, options });
  }

  /**
   * Create one member row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createMember(body: MemberInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Member>> {
    return request("POST", `/api/member`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one member row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveMember(id: number, options?: RequestOptions): Promise<Answer<Member>> {
    return request("GET", `/api/member/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one member row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateMember(id: number, body: MemberInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Member>> {
    return request("PUT", `/api/member/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one member row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateMember(id: number, body: MemberPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Member>> {
    return request("PATCH", `/api/member/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one member row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteMember(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/member/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List staff_report rows
   *
   * Answers a page of the staff_report rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listStaffReport<F extends "id" | "title" | "body" = never>(query?: ListStaffReportQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<StaffReport, F, never>>>> {
    return request("GET", `/api/staff_report`, { query, options });
  }

  /**
   * Create one staff_report row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createStaffReport(body: StaffReportInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<StaffReport>> {
    return request("POST", `/api/staff_report`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one staff_report row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveStaffReport(id: number, options?: RequestOptions): Promise<Answer<StaffReport>> {
    return request("GET", `/api/staff_report/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one staff_report row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateStaffReport(id: number, body: StaffReportInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<StaffReport>> {
    return request("PUT", `/api/staff_report/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one staff_report row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateStaffReport(id: number, body: StaffReportPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<StaffReport>> {
    return request("PATCH", `/api/staff_report/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one staff_report row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteStaffReport(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/staff_report/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List announcement rows
   *
   * Answers a page of the announcement rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listAnnouncement<F extends "id" | "title" = never>(query?: ListAnnouncementQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<Announcement, F, never>>>> {
    return request("GET", `/api/announcement`, { query, options });
  }

  /**
   * Create one announcement row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createAnnouncement(body: AnnouncementInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Announcement>> {
    return request("POST", `/api/announcement`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one announcement row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveAnnouncement(id: number, options?: RequestOptions): Promise<Answer<Announcement>> {
    return request("GET", `/api/announcement/${encodeURIComponent(String(id))}`, { options });
  }

  /**
   * Replace one announcement row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateAnnouncement(id: number, body: AnnouncementInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Announcement>> {
    return request("PUT", `/api/announcement/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one announcement row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateAnnouncement(id: number, body: AnnouncementPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Announcement>> {
    return request("PATCH", `/api/announcement/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one announcement row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteAnnouncement(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/announcement/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List link rows
   *
   * Answers a page of the link rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listLink<I extends "from_author" | "to_author" = never, F extends "id" | "from_author_id" | "to_author_id" | "label" = never>(query?: ListLinkQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Link, F, I>>>> {
    return request("GET", `/api/link`, { query, options });
  }

  /**
   * Create one link row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createLink(body: LinkInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Link>> {
    return request("POST", `/api/link`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one link row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveLink<I extends "from_author" | "to_author" = never>(id: number, query?: RetrieveLinkQuery<I>, options?: RequestOptions): Promise<Answer<Read<Link, never, I>>> {
    return request("GET", `/api/link/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one link row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateLink(id: number, body: LinkInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Link>> {
    return request("PUT", `/api/link/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one link row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateLink(id: number, body: LinkPatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Link>> {
    return request("PATCH", `/api/link/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one link row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteLink(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/link/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List list_only rows
   *
   * Answers a page of the list_only rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listListOnly<F extends "id" | "name" = never>(query?: ListListOnlyQuery<F>, options?: RequestOptions): Promise<Answer<Page<Read<ListOnly, F, never>>>> {
    return request("GET", `/api/list_only`, { query, options });
  }

  /**
   * List note rows
   *
   * Answers a page of the note rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listNote<I extends "owner" = never, F extends "id" | "owner_id" | "body" = never>(query?: ListNoteQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Note, F, I>>>> {
    return request("GET", `/api/note`, { query, options });
  }

  /**
   * Create one note row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `owner_id`.
   */
  function createNote(body: NoteInput, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Note>> {
    return request("POST", `/api/note`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one note row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveNote<I extends "owner" = never>(id: number, query?: RetrieveNoteQuery<I>, options?: RequestOptions): Promise<Answer<Read<Note, never, I>>> {
    return request("GET", `/api/note/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one note row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `owner_id`.
   */
  function updateNote(id: number, body: NoteInput, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Note>> {
    return request("PUT", `/api/note/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one note row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted, nor the server-set `owner_id`.
   */
  function partialUpdateNote(id: number, body: NotePatch, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Note>> {
    return request("PATCH", `/api/note/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one note row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteNote(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/note/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * List attachment rows
   *
   * Answers a page of the attachment rows the caller may see as `{count, next, previous, results}`. Filter with `?<column>=value` or `?<column>__<lookup>=value`; an unknown, hidden or uncoercible parameter answers 400 `invalid_query`.
   */
  function listAttachment<I extends "post" | "post.author" | "post.created_by" | "post.tags" = never, F extends "id" | "post_id" | "file" = never>(query?: ListAttachmentQuery<I, F>, options?: RequestOptions): Promise<Answer<Page<Read<Attachment, F, I>>>> {
    return request("GET", `/api/attachment`, { query, options });
  }

  /**
   * Create one attachment row
   *
   * Creates a row from a JSON object and answers it with 201. Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function createAttachment(body: AttachmentInput | FormData, options?: RequestOptions & { readonly idempotencyKey?: string | true }): Promise<Answer<Attachment>> {
    return request("POST", `/api/attachment`, { body, headers: { "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Retrieve one attachment row
   *
   * Answers the row; `?include=` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.
   */
  function retrieveAttachment<I extends "post" | "post.author" | "post.created_by" | "post.tags" = never>(id: number, query?: RetrieveAttachmentQuery<I>, options?: RequestOptions): Promise<Answer<Read<Attachment, never, I>>> {
    return request("GET", `/api/attachment/${encodeURIComponent(String(id))}`, { query, options });
  }

  /**
   * Replace one attachment row
   *
   * Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function updateAttachment(id: number, body: AttachmentInput | FormData, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Attachment>> {
    return request("PUT", `/api/attachment/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Change some columns of one attachment row
   *
   * Changes only the columns named and answers the re-read row. The key comes from the URL: a different key in the body answers 400. With `If-Match`, only the version it names is changed (else 412, nothing written). Unknown fields answer 400 `invalid_input` and privileged ones 400 `privileged_field`; generated keys, computed, hidden and noform columns are not accepted.
   */
  function partialUpdateAttachment(id: number, body: AttachmentPatch | FormData, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<Attachment>> {
    return request("PATCH", `/api/attachment/${encodeURIComponent(String(id))}`, { body, headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }

  /**
   * Delete one attachment row
   *
   * Deletes the row and answers 204; a row still referenced by other rows answers 409. With `If-Match`, only the version it names (else 412).
   */
  function deleteAttachment(id: number, options?: RequestOptions & { readonly ifMatch?: string; readonly idempotencyKey?: string | true }): Promise<Answer<undefined>> {
    return request("DELETE", `/api/attachment/${encodeURIComponent(String(id))}`, { headers: { "If-Match": options?.ifMatch, "Idempotency-Key": idempotencyKey(options?.idempotencyKey) }, options });
  }
  return { listAuthor, createAuthor, retrieveAuthor, updateAuthor, partialUpdateAuthor, deleteAuthor, listPost, createPost, bulkUpdatePost, bulkDeletePost, retrievePost, updatePost, partialUpdatePost, deletePost, publishPost, recentPost, exportPost, listComment, createComment, retrieveComment, updateComment, partialUpdateComment, deleteComment, listReply, createReply, retrieveReply, updateReply, partialUpdateReply, deleteReply, listTag, createTag, bulkUpdateTag, bulkDeleteTag, retrieveTag, updateTag, partialUpdateTag, deleteTag, listTicket, retrieveTicket, listShopOrder, createShopOrder, bulkUpdateShopOrder, bulkDeleteShopOrder, retrieveShopOrder, updateShopOrder, partialUpdateShopOrder, deleteShopOrder, listOrderItem, createOrderItem, bulkUpdateOrderItem, bulkDeleteOrderItem, retrieveOrderItem, updateOrderItem, partialUpdateOrderItem, deleteOrderItem, listItemPart, createItemPart, retrieveItemPart, updateItemPart, partialUpdateItemPart, deleteItemPart, listProject, createProject, retrieveProject, updateProject, partialUpdateProject, deleteProject, listMilestone, createMilestone, bulkUpdateMilestone, bulkDeleteMilestone, retrieveMilestone, updateMilestone, partialUpdateMilestone, deleteMilestone, listMember, createMember, retrieveMember, updateMember, partialUpdateMember, deleteMember, listStaffReport, createStaffReport, retrieveStaffReport, updateStaffReport, partialUpdateStaffReport, deleteStaffReport, listAnnouncement, createAnnouncement, retrieveAnnouncement, updateAnnouncement, partialUpdateAnnouncement, deleteAnnouncement, listLink, createLink, retrieveLink, updateLink, partialUpdateLink, deleteLink, listListOnly, listNote, createNote, retrieveNote, updateNote, partialUpdateNote, deleteNote, listAttachment, createAttachment, retrieveAttachment, updateAttachment, partialUpdateAttachment, deleteAttachment };
}

/** The client `createClient` makes. */
export type Api = ReturnType<typeof createClient>;
