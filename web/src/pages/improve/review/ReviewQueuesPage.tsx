import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type Body, type ReviewQueue } from '../../../api';
import { Field, FormError, fieldError } from '../../../components/Field';
import { useGate } from '../../../components/gate';
import { ListPage, nameColumn } from '../../../components/ListPage';
import { NamedOptions } from '../../../components/NamedOptions';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useAllDatasets } from '../../../queries/lists';
import { ProgressBar } from './ProgressBar';

type QuestionDraft = Body<'POST /v1/review_queues'>['questions'][number];
type QuestionType = QuestionDraft['type'];

const blankQuestion = (index: number): QuestionDraft => ({
  key: `question_${index + 1}`,
  label: '',
  type: 'boolean',
});

/** A question's row in the form: its key, label, type and the type's own settings. */
function QuestionRow({
  question,
  index,
  error,
  change,
  remove,
}: {
  question: QuestionDraft;
  index: number;
  error: Error | null;
  change: (next: QuestionDraft) => void;
  remove?: () => void;
}) {
  const field = `questions.${index}`;
  return (
    <fieldset className="question-row">
      <legend>Question {index + 1}</legend>
      <Field label="Key" name={`${field}.key`} error={error} hint="lower-case letters, digits and _">
        <input value={question.key} onChange={(event) => change({ ...question, key: event.target.value })} />
      </Field>
      <Field label="Label" name={`${field}.label`} error={error}>
        <input
          value={question.label}
          onChange={(event) => change({ ...question, label: event.target.value })}
        />
      </Field>
      <Field label="Type" name={`${field}.type`} error={error}>
        <select
          value={question.type}
          onChange={(event) => {
            const type = event.target.value as QuestionType;
            change({
              key: question.key,
              label: question.label,
              type,
              ...(type === 'choice' && { options: ['', ''] }),
            });
          }}
        >
          <option value="boolean">Yes or no</option>
          <option value="scale">Scale</option>
          <option value="choice">Choice</option>
          <option value="text">Text</option>
        </select>
      </Field>
      {question.type === 'scale' && (
        <>
          <Field label="Lowest" name={`${field}.min`} error={error}>
            <input
              type="number"
              value={question.min ?? 1}
              onChange={(event) => change({ ...question, min: Number(event.target.value) })}
            />
          </Field>
          <Field label="Highest" name={`${field}.max`} error={error}>
            <input
              type="number"
              value={question.max ?? 5}
              onChange={(event) => change({ ...question, max: Number(event.target.value) })}
            />
          </Field>
        </>
      )}
      {question.type === 'choice' && (
        <Field label="Options" name={`${field}.options`} error={error} hint="one per line, 2 to 20">
          <textarea
            rows={3}
            value={(question.options ?? []).join('\n')}
            onChange={(event) => change({ ...question, options: event.target.value.split('\n') })}
          />
        </Field>
      )}
      {remove && (
        <button type="button" className="link-button" onClick={remove}>
          Remove question {index + 1}
        </button>
      )}
    </fieldset>
  );
}

/** Creates a queue: its name, questions, reviews per item, blindness and the dataset corrections go to. */
function NewQueueForm() {
  const gate = useGate('write');
  const queries = useQueryClient();
  const navigate = useNavigate();
  const datasets = useAllDatasets();
  const [name, setName] = useState('');
  const [questions, setQuestions] = useState<QuestionDraft[]>([blankQuestion(0)]);
  const [reviewsPerItem, setReviewsPerItem] = useState(1);
  const [blind, setBlind] = useState(true);
  const [dataset, setDataset] = useState('');
  const [assignees, setAssignees] = useState<string[]>([]);
  const members = useQuery({
    queryKey: keys.members.all,
    queryFn: () => api('GET /v1/members', { query: { limit: 1000 } }),
    enabled: gate.allowed,
  });
  const create = useMutation({
    mutationFn: () =>
      api('POST /v1/review_queues', {
        body: {
          name,
          questions: questions.map((question) =>
            question.type === 'choice'
              ? {
                  ...question,
                  options: (question.options ?? []).map((option) => option.trim()).filter(Boolean),
                }
              : question,
          ),
          reviews_per_item: reviewsPerItem,
          blind,
          assignees,
          ...(dataset && { dataset }),
        },
      }),
    onSuccess: (queue) => {
      void queries.invalidateQueries({ queryKey: keys.reviewQueues.all });
      navigate(`/review/${queue.guid}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  if (!gate.allowed) return null;
  return (
    <form className="panel" onSubmit={submit} aria-label="New review queue">
      <h2>New review queue</h2>
      <Field label="Name" name="name" error={create.error}>
        <input value={name} onChange={(event) => setName(event.target.value)} required />
      </Field>
      {questions.map((question, index) => (
        <QuestionRow
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are the form's own list, edited in place
          key={index}
          question={question}
          index={index}
          error={create.error}
          change={(next) => setQuestions(questions.map((each, at) => (at === index ? next : each)))}
          remove={
            questions.length > 1 ? () => setQuestions(questions.filter((_, at) => at !== index)) : undefined
          }
        />
      ))}
      <button type="button" onClick={() => setQuestions([...questions, blankQuestion(questions.length)])}>
        Add a question
      </button>
      <Field label="Reviews per item" name="reviews_per_item" error={create.error} hint="1 to 5 people each">
        <input
          type="number"
          min={1}
          max={5}
          value={reviewsPerItem}
          onChange={(event) => setReviewsPerItem(Number(event.target.value))}
        />
      </Field>
      <div className="field checkbox">
        <label>
          <input type="checkbox" checked={blind} onChange={(event) => setBlind(event.target.checked)} />{' '}
          Blind: a reviewer sees others’ reviews only after their own
        </label>
      </div>
      <fieldset aria-describedby="assignees-hint">
        <legend>Assignees</legend>
        <p id="assignees-hint" className="hint">
          None chosen: every member from viewer up reviews it. A reviewer reviews only the queues that name
          them.
        </p>
        {(members.data?.data ?? []).map((member) => (
          <label key={member.user.guid} className="check">
            <input
              type="checkbox"
              checked={assignees.includes(member.user.guid)}
              onChange={(event) =>
                setAssignees(
                  event.target.checked
                    ? [...assignees, member.user.guid]
                    : assignees.filter((each) => each !== member.user.guid),
                )
              }
            />
            {member.user.name || member.user.email} ({member.role})
          </label>
        ))}
        {fieldError(create.error, 'assignees') && (
          <p className="field-error" role="alert">
            {fieldError(create.error, 'assignees')}
          </p>
        )}
      </fieldset>
      <Field label="Dataset for corrections" name="dataset" error={create.error}>
        <select value={dataset} onChange={(event) => setDataset(event.target.value)}>
          <option value="">None</option>
          <NamedOptions records={datasets.data?.data} />
        </select>
      </Field>
      <FormError error={create.error} fields={['name', 'questions', 'reviews_per_item', 'dataset']} />
      <button type="submit" disabled={create.isPending}>
        Create review queue
      </button>
    </form>
  );
}

/** The Review area: the queues a person may review, each with its progress. */
export default function ReviewQueuesPage() {
  return (
    <ListPage<ReviewQueue>
      id="review-queues"
      title="Review"
      form={<NewQueueForm />}
      listKey={keys.reviewQueues.all}
      read={(query) => api('GET /v1/review_queues', { query })}
      what="the review queues"
      empty={
        <Empty title="No review queues yet">
          <p>
            A review queue holds generations for people to review: answer its questions, correct the output,
            and turn the corrections into a dataset. See <Link to="/generations">Generations</Link> to add
            some.
          </p>
        </Empty>
      }
      columns={[
        nameColumn('/review'),
        {
          header: 'Progress',
          cell: (queue) => <ProgressBar counts={queue.counts} label={`${queue.name} progress`} />,
        },
        { header: 'Pending', numeric: true, cell: (queue) => queue.counts.pending },
        { header: 'In review', numeric: true, cell: (queue) => queue.counts.in_review },
        { header: 'Completed', numeric: true, cell: (queue) => queue.counts.completed },
        { header: 'Reviews each', numeric: true, cell: (queue) => queue.reviews_per_item },
      ]}
    />
  );
}
