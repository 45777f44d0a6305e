from django import forms

from console.text import text_problem


class AskForm(forms.Form):
    question = forms.CharField(max_length=2000, strip=True)
    k = forms.IntegerField(min_value=1, max_value=20, initial=5, required=False)

    def clean_question(self) -> str:
        question = self.cleaned_data["question"]
        problem = text_problem(question)
        if problem:
            raise forms.ValidationError(f"The question {problem}.")
        return question
