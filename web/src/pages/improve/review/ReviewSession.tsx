import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type LeasedReviewItem, type ReviewQueue } from '../../../api';
import { Field, FormError, fieldError } from '../../../components/Field';
import { Empty, Failure, Loading, QueryView } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { ProgressBar } from './ProgressBar';

type Question = ReviewQueue['questions'][number];
type Answers = Record<string, boolean | number | string>;

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A message's side in the chat: the model's answers on one side, the rest on the other. */
const bubbleOf = (role: string) =>
  role === 'assistant' ? 'assistant' : role === 'system' ? 'system' : 'user';

/** The conversation under review as a chat: what was sent, then the answer being reviewed. */
function Conversation({ generation }: { generation: LeasedReviewItem['generation'] }) {
  const sent = generation.full_prompt_sent;
  return (
    <ol className="review-chat" aria-label="Conversation">
      {sent.length === 0 && (
        <li className="bubble user">
          <span className="role">input</span>
          <pre>{asText(generation.input)}</pre>
        </li>
      )}
      {sent.map((message, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: the messages of one stored prompt
          key={index}
          className={`bubble ${bubbleOf(message.role)}`}
        >
          <span className="role">{message.role}</span>
          <pre>{asText(message.content)}</pre>
        </li>
      ))}
      <li className="bubble assistant reviewed">
        <span className="role">answer under review</span>
        <pre>{generation.output}</pre>
      </li>
    </ol>
  );
}

/** The values a question takes from the keyboard, in order: y/n, or the digits. */
function choicesOf(question: Question): { value: boolean | number | string; label: string; key: string }[] {
  if (question.type === 'boolean')
    return [
      { value: true, label: 'Yes', key: 'y' },
      { value: false, label: 'No', key: 'n' },
    ];
  if (question.type === 'scale') {
    const values: number[] = [];
    for (let value = question.min ?? 1; value <= (question.max ?? 5); value += 1) values.push(value);
    return values.map((value) => ({
      value,
      label: String(value),
      key: value >= 0 && value <= 9 ? String(value) : '',
    }));
  }
  if (question.type === 'choice')
    return (question.options ?? []).map((option, index) => ({
      value: option,
      label: option,
      key: index < 9 ? String(index + 1) : '',
    }));
  return [];
}

function QuestionField({
  question,
  current,
  answer,
  error,
  onAnswer,
  onFocus,
}: {
  question: Question;
  current: boolean;
  answer: Answers[string] | undefined;
  error: Error | null;
  onAnswer: (value: Answers[string]) => void;
  onFocus: () => void;
}) {
  const message = fieldError(error, `answers.${question.key}`);
  const errorId = `question-${question.key}-error`;
  if (question.type === 'text')
    return (
      <div className={current ? 'question current' : 'question'}>
        <Field
          label={`${question.label}${question.required ? '' : ' (optional)'}`}
          name={`answers.${question.key}`}
          error={error}
        >
          <textarea
            rows={2}
            value={String(answer ?? '')}
            onFocus={onFocus}
            onChange={(event) => onAnswer(event.target.value)}
          />
        </Field>
      </div>
    );
  return (
    <fieldset
      className={current ? 'question current' : 'question'}
      aria-current={current ? 'step' : undefined}
      aria-describedby={message ? errorId : undefined}
    >
      <legend>
        {question.label}
        {question.required ? '' : ' (optional)'}
      </legend>
      <div className="choices">
        {choicesOf(question).map((choice) => (
          <label key={String(choice.value)} className={answer === choice.value ? 'choice chosen' : 'choice'}>
            <input
              type="radio"
              name={`question-${question.key}`}
              checked={answer === choice.value}
              onChange={() => onAnswer(choice.value)}
              onFocus={onFocus}
            />
            {choice.label}
            {choice.key && choice.key !== choice.label && <kbd>{choice.key}</kbd>}
          </label>
        ))}
      </div>
      {message && (
        <p id={errorId} className="field-error" role="alert">
          {message}
        </p>
      )}
    </fieldset>
  );
}

/** Whether a key press is typing into a field (a text box, a select), not a review shortcut. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['radio', 'checkbox'].includes(target.type);
  return target.isContentEditable;
}

/**
 * Reviewing one queue, an item at a time, from the keyboard: y/n and digits answer the current
 * question and move to the next, ↑/↓ move between questions, Enter submits, s skips (releases the
 * item and takes the next). The correction editor holds the output as it should have been.
 */
export default function ReviewSession() {
  const { guid = '' } = useParams();
  const queries = useQueryClient();
  const queue = useQuery({
    queryKey: keys.reviewQueues.one(guid),
    queryFn: () => api('GET /v1/review_queues/{guid}', { path: { guid } }),
  });
  const [leased, setLeased] = useState<LeasedReviewItem | null | undefined>(undefined);
  const [answers, setAnswers] = useState<Answers>({});
  const [correction, setCorrection] = useState('');
  const [comment, setComment] = useState('');
  const [current, setCurrent] = useState(0);
  const [reviewed, setReviewed] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);

  const take = useMutation({
    mutationFn: async () =>
      (await api('POST /v1/review_queues/{guid}/next', { path: { guid } })) as LeasedReviewItem | undefined,
    onSuccess: (next) => {
      setLeased(next ?? null);
      setAnswers({});
      setCorrection('');
      setComment('');
      setCurrent(0);
      void queries.invalidateQueries({ queryKey: keys.reviewQueues.one(guid) });
      heading.current?.focus();
    },
  });
  const submit = useMutation({
    mutationFn: () =>
      api('POST /v1/review_queues/{guid}/items/{item}/reviews', {
        path: { guid, item: leased!.item.guid },
        body: {
          answers: Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== '')),
          ...(correction.trim() && { correction }),
          ...(comment.trim() && { comment }),
        },
      }),
    onSuccess: () => {
      setReviewed((count) => count + 1);
      take.mutate();
    },
  });
  const skip = useMutation({
    mutationFn: () =>
      api('POST /v1/review_queues/{guid}/items/{item}/release', { path: { guid, item: leased!.item.guid } }),
    onSuccess: () => take.mutate(),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the first item, once, when the page opens
  useEffect(() => {
    take.mutate();
  }, [guid]);

  const questions = queue.data?.questions ?? [];
  const busy = take.isPending || submit.isPending || skip.isPending;
  const nextAnswerable = useCallback(
    (from: number) => {
      for (let index = from + 1; index < questions.length; index += 1)
        if (questions[index]!.type !== 'text') return index;
      return from;
    },
    [questions],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!leased || busy || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const question = questions[current];
      const key = event.key.toLowerCase();
      if (key === 'enter') {
        if (event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement) return;
        event.preventDefault();
        submit.mutate();
        return;
      }
      if (key === 's') {
        event.preventDefault();
        skip.mutate();
        return;
      }
      if (key === 'arrowdown' || key === 'arrowup') {
        event.preventDefault();
        setCurrent((index) =>
          Math.max(0, Math.min(questions.length - 1, index + (key === 'arrowdown' ? 1 : -1))),
        );
        return;
      }
      if (!question) return;
      const choice = choicesOf(question).find((each) => each.key === key);
      if (!choice) return;
      event.preventDefault();
      setAnswers((given) => ({ ...given, [question.key]: choice.value }));
      setCurrent(nextAnswerable(current));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [leased, busy, questions, current, submit, skip, nextAnswerable]);

  const send = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate();
  };

  return (
    <section aria-labelledby="reviewing-title" className="reviewing">
      <header className="page-header">
        <h1 id="reviewing-title" ref={heading} tabIndex={-1}>
          {queue.data ? `Reviewing ${queue.data.name}` : 'Reviewing'}
        </h1>
        <Link to={`/review/${guid}`}>Back to the queue</Link>
      </header>
      {queue.data && <ProgressBar counts={queue.data.counts} label="Items completed" />}
      <p className="muted keys-help">
        Keys: <kbd>y</kbd>/<kbd>n</kbd> and digits answer, <kbd>↑</kbd>/<kbd>↓</kbd> move between questions,{' '}
        <kbd>Enter</kbd> submits, <kbd>s</kbd> skips. Reviewed this session: {reviewed}.
      </p>
      {queue.isError ? (
        <Failure what="the review queue" error={queue.error} />
      ) : take.isError ? (
        <Failure what="the next item" error={take.error} />
      ) : leased === undefined || queue.isPending ? (
        <Loading what="the next item" />
      ) : leased === null ? (
        <Empty title="Nothing left for you in this queue">
          <p>
            Every item has its reviews, is being reviewed by others, or you have reviewed it.{' '}
            <Link to="/review">Back to the queues</Link>
          </p>
        </Empty>
      ) : (
        <QueryView query={queue} what="the questions">
          {() => (
            <div className="review-layout">
              <Conversation generation={leased.generation} />
              <form onSubmit={send} aria-label="Review" className="review-form">
                {questions.map((question, index) => (
                  <QuestionField
                    key={question.key}
                    question={question}
                    current={index === current}
                    answer={answers[question.key]}
                    error={submit.error}
                    onAnswer={(value) => setAnswers((given) => ({ ...given, [question.key]: value }))}
                    onFocus={() => setCurrent(index)}
                  />
                ))}
                <Field
                  label="Correction (the answer as it should have been)"
                  name="correction"
                  error={submit.error}
                >
                  <textarea
                    rows={5}
                    value={correction}
                    onChange={(event) => setCorrection(event.target.value)}
                  />
                </Field>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setCorrection(leased.generation.output)}
                >
                  Start the correction from the answer
                </button>
                <Field label="Comment" name="comment" error={submit.error}>
                  <textarea rows={2} value={comment} onChange={(event) => setComment(event.target.value)} />
                </Field>
                <FormError
                  error={submit.error ?? skip.error}
                  fields={[
                    ...questions.map((question) => `answers.${question.key}`),
                    'correction',
                    'comment',
                  ]}
                />
                <div className="actions-row">
                  <button type="submit" disabled={busy}>
                    Submit review
                  </button>
                  <button type="button" className="secondary" disabled={busy} onClick={() => skip.mutate()}>
                    Skip
                  </button>
                </div>
                <p className="muted">Lease ends {new Date(leased.lease_expires_at).toLocaleTimeString()}.</p>
              </form>
            </div>
          )}
        </QueryView>
      )}
    </section>
  );
}
