// The person in tests that need one answer: Save to every save question (counted), Cancel to
// every send; `whileAsked` lets another writer act while the question is open.
import type { Confirmer, SaveAnswer, SendAnswer } from '../../src/core/domain.ts';

export class SayingSave implements Confirmer {
  asked = 0;
  whileAsked: (() => Promise<void>) | undefined;

  async confirmSave(): Promise<SaveAnswer> {
    this.asked++;
    await this.whileAsked?.();
    return 'save';
  }

  async confirmSend(): Promise<SendAnswer> {
    return 'cancel';
  }
}
