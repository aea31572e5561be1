/** A problem in plain words, announced to screen readers; nothing when there is none. */
export function ErrorLine(props: { text: string | undefined | null | false }) {
  return props.text ? (
    <p className="error-text" role="alert">
      {props.text}
    </p>
  ) : null;
}
