// The store's projection of a session into the API's answers: the renderings that retrieve and
// list send as they are, written beside the session's document with each change (session-columns.ts)
// and rendered again from the document when the stored one is of an older version.
import type { Session } from '../domain/types.js';
import { listItemOf, toDetail } from '../domain/views.js';

/** A session as the default item of a list page, as stored beside its document (list_view). */
export const renderListView = (session: Session): string => JSON.stringify(listItemOf(session, {}));

/** A session as retrieve answers it, as stored beside its document (detail_view). */
export const renderDetailView = (session: Session): string => JSON.stringify(toDetail(session));
