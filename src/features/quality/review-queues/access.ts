import type { Principal } from '../../../core/roles.js';
import { ForbiddenError } from '../../../errors.js';
import type { QueueRow } from './repository.js';

// Who may see and review a queue (docs/review.md#who-reviews). A queue with assignees is theirs;
// one without is every member's who may read the workspace. A `reviewer` reads nothing else.

/** The person a review is made by: a signed-in person, or the person who made the key. */
export function reviewerOf(principal: Principal): string {
  const person = principal.person?.id;
  if (!person)
    throw new ForbiddenError('A review is made by a person: sign in, or use an API key a person made');
  return person;
}

/** Whether the principal sees every queue of the workspace (viewers and above do). */
export function seesEveryQueue(principal: Principal): boolean {
  return principal.rights.has('read');
}

function isAssigned(queue: QueueRow, principal: Principal): boolean {
  const person = principal.person?.id;
  return person !== undefined && queue.assignees.includes(person);
}

/** A 403 unless the principal may read the queue (its items and their generations). */
export function assertMayOpen(queue: QueueRow, principal: Principal): void {
  if (!seesEveryQueue(principal) && !isAssigned(queue, principal))
    throw new ForbiddenError('This review queue is not assigned to you');
}

/** A 403 unless the principal may lease and review the queue's items. */
export function assertMayReview(queue: QueueRow, principal: Principal): void {
  const allowed = queue.assignees.length === 0 ? seesEveryQueue(principal) : isAssigned(queue, principal);
  if (!allowed)
    throw new ForbiddenError(
      queue.assignees.length === 0
        ? 'A queue without assignees is reviewed by viewers and above; a reviewer reviews the queues that name them'
        : 'This review queue is not assigned to you',
    );
}

/** Whether the principal sees others' reviews of an item of a blind queue they have not reviewed. */
export function seesBlindReviews(principal: Principal): boolean {
  return principal.rights.has('manage');
}
