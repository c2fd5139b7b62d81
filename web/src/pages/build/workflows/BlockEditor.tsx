import type { Action } from '../../../api';

/** A block as the editor holds it: inputs as rows so they can be added, renamed and removed. */
export type EditedBlock = {
  key: string;
  name: string;
  type: 'action' | 'output';
  action: string;
  inputs: { variable: string; text: string }[];
};

let lastKey = 0;
/** A React key for a block being edited (blocks are reordered, so their place is not their identity). */
export function newKey(): string {
  lastKey += 1;
  return `block-${lastKey}`;
}

/** One block: its name, kind, Action and the text each of the Action's variables gets. */
export function BlockEditor({
  block,
  index,
  count,
  actions,
  onChange,
  onMove,
  onRemove,
}: {
  block: EditedBlock;
  index: number;
  count: number;
  actions: Action[];
  onChange: (block: EditedBlock) => void;
  onMove: (offset: -1 | 1) => void;
  onRemove: () => void;
}) {
  const label = `block ${index + 1}`;
  const setInput = (at: number, changes: Partial<EditedBlock['inputs'][number]>) =>
    onChange({
      ...block,
      inputs: block.inputs.map((input, place) => (place === at ? { ...input, ...changes } : input)),
    });
  return (
    <li className="block">
      <div className="form-row">
        <span className="block-number" aria-hidden="true">
          {index + 1}
        </span>
        <label className="inline-field">
          <span>Name</span>
          <input
            aria-label={`Name of ${label}`}
            value={block.name}
            onChange={(event) => onChange({ ...block, name: event.target.value })}
          />
        </label>
        <label className="inline-field">
          <span>Kind</span>
          <select
            aria-label={`Kind of ${label}`}
            value={block.type}
            onChange={(event) => onChange({ ...block, type: event.target.value as EditedBlock['type'] })}
          >
            <option value="action">Run an Action</option>
            <option value="output">Output (the previous block's answer)</option>
          </select>
        </label>
        {block.type === 'action' && (
          <label className="inline-field">
            <span>Action</span>
            <select
              aria-label={`Action of ${label}`}
              value={block.action}
              onChange={(event) => onChange({ ...block, action: event.target.value })}
            >
              <option value="">Choose…</option>
              {actions.map((action) => (
                <option key={action.guid} value={action.guid}>
                  {action.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="actions-row block-buttons">
          <button
            type="button"
            className="secondary"
            aria-label={`Move ${label} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="secondary"
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
          <button type="button" className="secondary" aria-label={`Remove ${label}`} onClick={onRemove}>
            Remove
          </button>
        </div>
      </div>
      {block.type === 'action' && (
        <div className="block-inputs">
          {block.inputs.map((input, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: input rows have only their place
            <div className="form-row" key={at}>
              <input
                aria-label={`Variable ${at + 1} of ${label}`}
                placeholder="variable"
                value={input.variable}
                onChange={(event) => setInput(at, { variable: event.target.value })}
              />
              <input
                aria-label={`Value of variable ${at + 1} of ${label}`}
                className="wide"
                placeholder="{{input.question}} or {{blocks.previous}}"
                value={input.text}
                onChange={(event) => setInput(at, { text: event.target.value })}
              />
              <button
                type="button"
                className="secondary"
                aria-label={`Remove variable ${at + 1} of ${label}`}
                onClick={() =>
                  onChange({ ...block, inputs: block.inputs.filter((_, place) => place !== at) })
                }
              >
                ×
              </button>
            </div>
          ))}
          <button
            type="button"
            className="link"
            onClick={() => onChange({ ...block, inputs: [...block.inputs, { variable: '', text: '' }] })}
          >
            Add a variable
          </button>
          {block.inputs.length === 0 && (
            <span className="muted"> — none: the Action gets the previous block's output.</span>
          )}
        </div>
      )}
    </li>
  );
}
