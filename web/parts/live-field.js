// How every typed field of the page takes its text: a value that reads is
// applied as it is typed; text that does not read yet (half a number, a
// value out of range) is left as typed, marked invalid, and applies
// nothing. Leaving the field or Enter commits it: a value that can be used
// after a correction (clamped, rounded) is applied then, text that cannot
// leaves the value in use, either with a report, and the field shows the
// value in use.

/** Marks the input invalid (for assistive technology too) or clears it. */
export function markInvalid(input, bad) {
  input.classList.toggle("invalid", bad);
  if (bad) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

/**
 * Wires `input`: read(text) gives { value } for text that reads, { value,
 * problem } for a value usable only once committed, { problem } for text
 * of no use; apply(value) uses a value; shown() is the text of the value in
 * use; report(problem, text) says what a commit did with text that had a
 * problem (null: nothing to say); mark(bad) shows whether the text reads.
 */
export function liveField(
  input,
  {
    read,
    apply,
    shown,
    report = () => {},
    mark = (bad) => markInvalid(input, bad),
  },
) {
  input.addEventListener("input", () => {
    const result = read(input.value);
    const ready = result.problem === undefined;
    mark(!ready);
    if (!ready) return;
    apply(result.value);
    report(null, input.value);
  });
  input.addEventListener("change", () => {
    const text = input.value;
    const result = read(text);
    mark(false);
    if (result.value !== undefined) apply(result.value);
    report(result.problem === undefined ? null : result.problem, text);
    input.value = shown();
  });
}
