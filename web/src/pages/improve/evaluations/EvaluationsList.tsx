import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api } from '../../../api';
import { Field } from '../../../components/Field';
import { ListPage, nameColumn } from '../../../components/ListPage';
import { Empty } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { useAllEvaluations } from '../../../queries/lists';
import { EvaluationStatus } from './EvaluationStatus';
import { StartEvaluation } from './StartEvaluation';

/** Picks two evaluations of one dataset version and opens their comparison. */
function CompareForm() {
  const evaluations = useAllEvaluations();
  const navigate = useNavigate();
  const [base, setBase] = useState('');
  const [candidate, setCandidate] = useState('');
  const finished = evaluations.data?.data.filter((each) => each.status === 'SUCCESS') ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/evaluations/compare?base=${base}&candidate=${candidate}`);
  };
  const picker = (label: string, value: string, set: (value: string) => void) => (
    <Field label={label}>
      <select required value={value} onChange={(event) => set(event.target.value)}>
        <option value="">Choose an evaluation</option>
        {finished.map((each) => (
          <option key={each.guid} value={each.guid}>
            {each.name}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <>
      <h2 className="section-title">Compare two runs</h2>
      <form className="form-row" onSubmit={submit} aria-label="Compare two evaluations">
        {picker('Base', base, setBase)}
        {picker('Candidate', candidate, setCandidate)}
        <button type="submit">Compare</button>
      </form>
      <h2 className="section-title">Runs</h2>
    </>
  );
}

/** Evaluation runs: start one (or a matrix), watch them, open one, compare two. */
export default function EvaluationsList() {
  const { name: actionName } = useActionNames();
  return (
    <ListPage
      id="evaluations"
      title="Evaluations"
      form={
        <>
          <StartEvaluation />
          <CompareForm />
        </>
      }
      listKey={keys.evaluations.all}
      read={(query) => api('GET /v1/evaluations', { query })}
      what="the evaluations"
      empty={
        <Empty title="No evaluations yet">
          <p>
            An evaluation runs a version of an Action over every item of a dataset and scores each output.
            Choose them above; with two or more versions you get a matrix to compare.
          </p>
        </Empty>
      }
      columns={[
        nameColumn('/evaluations'),
        { header: 'Status', cell: (evaluation) => <EvaluationStatus evaluation={evaluation} /> },
        {
          header: 'Action',
          cell: (evaluation) => (
            <Link to={`/actions/${evaluation.action}`}>
              {actionName(evaluation.action)} v{evaluation.version}
            </Link>
          ),
        },
        { header: 'Cost (USD)', numeric: true, cell: (evaluation) => evaluation.cost.toFixed(4) },
        { header: 'Started', cell: (evaluation) => new Date(evaluation.created_at).toLocaleString() },
      ]}
    />
  );
}
