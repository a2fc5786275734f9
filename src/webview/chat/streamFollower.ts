import type { AnswerStatus, AppendMessage, SnapshotMessage } from '../../core/chat/protocol/chatProtocol';

/** Where an append's text goes: an answer, or one column of a comparison turn. */
export interface AppendTarget {
  messageId: string;
  column?: number;
}

/**
 * Which answer, or which comparison turn, the host's appends are for. An answer's appends, and each
 * column's, are numbered from 1: one that does not follow the last was lost or reordered, and the
 * app asks for a snapshot instead of rendering a wrong answer.
 */
export class StreamFollower {
  #streaming: { messageId: string; seq: number } | undefined;
  /** The comparison streaming: its turn, and per column (by index) the `seq` of its last append. */
  #comparing: { turnId: string; seqs: number[] } | undefined;

  /** An answer or a comparison streams. */
  get busy(): boolean {
    return this.#streaming !== undefined || this.#comparing !== undefined;
  }

  /** Where the append goes, counted as taken; undefined when nothing streams there or it does not follow the last. */
  take(append: AppendMessage): AppendTarget | undefined {
    if (append.column !== undefined) {
      const comparing = this.#comparing;
      if (!comparing || append.seq !== (comparing.seqs[append.column] ?? 0) + 1) return undefined;
      comparing.seqs[append.column] = append.seq;
      return { messageId: comparing.turnId, column: append.column };
    }
    if (!this.#streaming || append.seq !== this.#streaming.seq + 1) return undefined;
    this.#streaming.seq = append.seq;
    return { messageId: this.#streaming.messageId };
  }

  /** What streams as a snapshot has it: the next appends follow its numbers. */
  restart(snapshot: Pick<SnapshotMessage, 'conversation' | 'streaming' | 'streamingColumns'>): void {
    this.#streaming = snapshot.streaming ? { ...snapshot.streaming } : undefined;
    const columns = snapshot.streamingColumns;
    const turn = columns && snapshot.conversation.messages.find((m) => m.id === columns.turnId);
    // Columns not yet sent (waiting for a slot) start from 0 like any answer.
    this.#comparing = turn?.comparison && columns
      ? { turnId: turn.id, seqs: turn.comparison.columns.map((c) => columns.columns.find((p) => p.columnId === c.answer.id)?.seq ?? 0) }
      : undefined;
  }

  /** An answer's status from its upsert or patch: true when the answer that streamed has ended. */
  answerStatus(messageId: string, status: AnswerStatus | undefined): boolean {
    if (status === 'streaming' && this.#streaming?.messageId !== messageId) this.#streaming = { messageId, seq: 0 };
    if (status === 'streaming' || this.#streaming?.messageId !== messageId) return false;
    this.#streaming = undefined;
    return true;
  }

  /** A comparison turn's status from its upsert or patch: true when the turn that streamed has ended. */
  comparisonStatus(turnId: string, status: AnswerStatus | undefined): boolean {
    if (status === 'streaming' && this.#comparing?.turnId !== turnId) this.#comparing = { turnId, seqs: [] };
    if (status === 'streaming' || this.#comparing?.turnId !== turnId) return false;
    this.#comparing = undefined;
    return true;
  }
}
